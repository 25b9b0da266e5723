// The trace log: <arborHome>/logs/arbor.log, one JSON object per line, for operators
// checking what ran. It carries identifiers and outcomes only — the event type admits no
// arguments, results or prompts, fields are copied by name (extra properties on the
// object passed in are dropped), and every string is scrubbed of anything secret-shaped.
import { renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { flushOnExit } from './exitFlush.js';
import { appendPrivate, makePrivateDir } from './privateFs.js';
import { knownSecrets, scrubSecretLike } from './redact.js';

export type TraceEventName = 'run_started' | 'run_finished' | 'run_failed' | 'tool_started' | 'tool_finished' | 'worktree';

export interface TraceEvent {
  event: TraceEventName;
  agent_alias: string;
  session_key: string;
  run_id: string;
  parent_run_id?: string;
  /** A child's session number (the 3 of researcher#3), as the screen names it. */
  run_number?: number;
  tool?: string;
  status?: string;
  ms?: number;
  /** run_started of a child: the names of the tools it was offered. */
  tools?: string[];
  /** "<provider type>/<model>": configured at a run's start, the one that answered at its end. */
  model?: string;
  /** worktree: an isolated child's branch and what became of its changes (merged, waiting, ...). */
  branch?: string;
  merge?: string;
}

/** Longest time an event waits in memory before it is written. */
export const TRACE_FLUSH_MS = 250;
/** Past this size the log is moved to arbor.log.1 when a TraceLog first writes. */
export const TRACE_ROTATE_BYTES = 10 * 1024 * 1024;

const EVENT_NAMES = new Set<string>(['run_started', 'run_finished', 'run_failed', 'tool_started', 'tool_finished', 'worktree']);
const STRING_FIELDS = ['agent_alias', 'session_key', 'run_id', 'parent_run_id', 'tool', 'status', 'model', 'branch', 'merge'] as const;

export function traceLogPath(arborHome: string): string {
  return join(arborHome, 'logs', 'arbor.log');
}

export class TraceLog {
  readonly path: string;
  private buffer: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private prepared = false;
  private closed = false;
  private readonly unregisterExit: () => void;

  constructor(arborHome: string) {
    this.path = traceLogPath(arborHome);
    this.unregisterExit = flushOnExit(() => this.flush());
  }

  event(e: TraceEvent): void {
    if (this.closed || !EVENT_NAMES.has(e.event)) return;
    const secrets = knownSecrets();
    const line: Record<string, string | number | string[]> = { ts: new Date().toISOString(), event: e.event };
    for (const field of STRING_FIELDS) {
      const value = e[field];
      if (typeof value === 'string') line[field] = scrubSecretLike(value, secrets);
    }
    if (typeof e.ms === 'number' && Number.isFinite(e.ms)) line.ms = Math.round(e.ms);
    if (typeof e.run_number === 'number' && Number.isSafeInteger(e.run_number)) line.run_number = e.run_number;
    if (Array.isArray(e.tools)) line.tools = e.tools.filter((n) => typeof n === 'string').map((n) => scrubSecretLike(n, secrets));
    this.buffer.push(JSON.stringify(line));
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, TRACE_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is buffered. A trace log must never take arbor down: write errors drop
   * the batch. */
  flush(): void {
    if (this.buffer.length === 0) return;
    const text = this.buffer.join('\n') + '\n';
    this.buffer = [];
    try {
      this.prepare();
      appendPrivate(this.path, text);
    } catch {
      // Dropped on purpose: see above.
    }
  }

  close(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
    this.closed = true;
    this.unregisterExit();
  }

  private prepare(): void {
    if (this.prepared) return;
    makePrivateDir(dirname(this.path));
    try {
      if (statSync(this.path).size > TRACE_ROTATE_BYTES) renameSync(this.path, `${this.path}.1`);
    } catch {
      // No log yet.
    }
    this.prepared = true;
  }
}
