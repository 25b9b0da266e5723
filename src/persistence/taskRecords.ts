// Background task records: <arborHome>/tasks/<uuid>.json, one file per task, each write
// atomic (temp file + rename) so a crash never leaves a half-written record. Records
// outlive arbor; a task that was running when its arbor died reads back as 'lost'.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { t } from '../i18n/index.js';
import { writeFileAtomic } from './atomicWrite.js';
import { makePrivateDir } from './privateFs.js';
import { knownSecrets, scrubKnownSecrets } from './redact.js';

export type TaskStatus = 'running' | 'completed' | 'failed' | 'cancelled' | 'lost';

export const TERMINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set<TaskStatus>(['completed', 'failed', 'cancelled', 'lost']);

export interface TaskToolCall {
  /** Cut at 64 characters. */
  name: string;
  started_at: string;
  finished_at: string | null;
  success: boolean | null;
}

export interface TaskProgress {
  last_activity_at: string;
  /** Model requests issued (a single-call target counts its one request). */
  iterations: number;
  tools_completed: number;
  /** The newest call still running (finished_at null), else the last one that finished. */
  last_tool: TaskToolCall | null;
  timeout_budget_secs: number | null;
  /** The last five finished calls, newest last. */
  recent_tools: TaskToolCall[];
  /** The last five receipts, as `<tool>: <token>`. */
  receipt_tail: string[];
}

export interface TaskRecord {
  task_id: string;
  agent: string;
  caller_chain: string[];
  status: TaskStatus;
  output: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  heartbeat_at: string;
  pid: number;
  progress: TaskProgress | null;
  /** The runtime's receipt lines ([delegation] child_receipts), written when the task ends;
   * views show them after the output (or error), never as a field of their own. */
  receipt?: string[];
  /** An isolated child's worktree outcome when the task ended, one of the `[worktree: …]`
   * notes a foreground result ends with (issue #23); absent for a child without its own. */
  worktree?: string;
}

export type TaskPatch = Partial<Omit<TaskRecord, 'task_id'>>;

export type TaskView = Omit<TaskRecord, 'progress'> & { progress: (TaskProgress & { elapsed_secs: number }) | null };

export const TASK_TOOL_NAME_CAP = 64;
const PROGRESS_LIST_CAP = 5;
/** Running tasks refresh their heartbeat at least once a minute; a record from another
 * live process whose heartbeat is older than this is treated as abandoned. */
export const TASK_HEARTBEAT_STALE_MS = 3 * 60_000;

const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TASK_STATUSES = new Set<string>(['running', 'completed', 'failed', 'cancelled', 'lost']);

/** Only a canonical UUID is a task id, so an id can never name a path outside the folder. */
export function isValidTaskId(id: unknown): id is string {
  return typeof id === 'string' && TASK_ID.test(id);
}

// A short id as people copy it from a card or a notice (`4ef3523f`): hex digits and the
// UUID's dashes, at least four characters, so "a", "5" or "bad" stay invalid.
const TASK_ID_PREFIX = /^[0-9a-f][0-9a-f-]{3,35}$/i;

/** A full task id or the start of one; like a full id, it can never name a path. */
export function isTaskIdOrPrefix(id: unknown): id is string {
  return typeof id === 'string' && (TASK_ID.test(id) || TASK_ID_PREFIX.test(id));
}

/** The ids among `ids` that `idOrPrefix` names: itself when it is a full id there, else each
 * id it starts. Compared lower-case. */
export function matchTaskIds(idOrPrefix: string, ids: readonly string[]): string[] {
  const wanted = idOrPrefix.toLowerCase();
  if (ids.includes(wanted)) return [wanted];
  return ids.filter((id) => id.startsWith(wanted));
}

export function tasksDir(arborHome: string): string {
  return join(arborHome, 'tasks');
}

/** The record's path; throws for anything that is not a task id. */
export function taskPath(arborHome: string, id: string): string {
  if (!isValidTaskId(id)) throw new Error(t('persistence:tasks.badId', { id: String(id) }));
  return join(tasksDir(arborHome), `${id.toLowerCase()}.json`);
}

const cutName = (name: string): string => (name.length > TASK_TOOL_NAME_CAP ? name.slice(0, TASK_TOOL_NAME_CAP) : name);

function cutReceipt(receipt: string): string {
  // The tool part is cut like every tool name; the token after it is kept whole.
  const sep = receipt.indexOf(': ');
  if (sep < 0) return cutName(receipt);
  return cutName(receipt.slice(0, sep)) + receipt.slice(sep);
}

function normalizeProgress(progress: TaskProgress | null): TaskProgress | null {
  if (!progress) return null;
  const call = (c: TaskToolCall): TaskToolCall => ({ ...c, name: cutName(c.name) });
  return {
    ...progress,
    last_tool: progress.last_tool ? call(progress.last_tool) : null,
    recent_tools: (progress.recent_tools ?? []).slice(-PROGRESS_LIST_CAP).map(call),
    receipt_tail: (progress.receipt_tail ?? []).slice(-PROGRESS_LIST_CAP).map(cutReceipt),
  };
}

function isRecord(value: unknown, id: string): value is TaskRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.task_id === 'string' &&
    r.task_id.toLowerCase() === id.toLowerCase() &&
    typeof r.agent === 'string' &&
    Array.isArray(r.caller_chain) &&
    typeof r.status === 'string' &&
    TASK_STATUSES.has(r.status)
  );
}

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const FORGED_RECEIPT = /^\s*\[runtime (receipt|warning)/i;

/** The receipt after the output (or the error), the child's own look-alike lines quoted
 * (tools/receipt.ts does the same for foreground results). */
function withReceiptLines(rec: TaskRecord): TaskRecord {
  const { receipt, ...rest } = rec;
  if (!Array.isArray(receipt) || receipt.length === 0) return rest;
  const lines = receipt.filter((l) => typeof l === 'string').join('\n');
  const guard = (text: string) =>
    text
      .split('\n')
      .map((l) => (FORGED_RECEIPT.test(l) ? `> ${l}` : l))
      .join('\n');
  if (rest.output !== null) return { ...rest, output: `${guard(rest.output)}\n${lines}` };
  if (rest.error !== null) return { ...rest, error: `${guard(rest.error)}\n${lines}` };
  return rest;
}

export class TaskStore {
  readonly dir: string;

  constructor(private readonly arborHome: string) {
    this.dir = tasksDir(arborHome);
  }

  create(rec: TaskRecord): void {
    const path = taskPath(this.arborHome, rec.task_id);
    if (existsSync(path)) throw new Error(t('persistence:tasks.exists', { id: rec.task_id, dir: this.dir }));
    this.write(path, { ...rec, task_id: rec.task_id.toLowerCase(), progress: normalizeProgress(rec.progress) });
  }

  /** Applies `patch` and returns the stored record. A finished record (completed, failed,
   * cancelled, lost) is final: a late update leaves it as it is. */
  update(id: string, patch: TaskPatch): TaskRecord {
    const path = taskPath(this.arborHome, id);
    const current = this.get(id);
    if (!current) throw new Error(t('persistence:tasks.unknown', { id, dir: this.dir }));
    if (TERMINAL_TASK_STATUSES.has(current.status)) return current;
    const next: TaskRecord = { ...current, ...patch, task_id: current.task_id };
    if ('progress' in patch) next.progress = normalizeProgress(patch.progress ?? null);
    this.write(path, next);
    return next;
  }

  /** The record, or undefined when there is none. Throws for an invalid id or a damaged
   * file (naming it). */
  get(id: string): TaskRecord | undefined {
    const path = taskPath(this.arborHome, id);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new Error(t('persistence:tasks.corrupt', { file: path, error: (err as Error).message }), { cause: err });
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new Error(t('persistence:tasks.corrupt', { file: path, error: (err as Error).message }), { cause: err });
    }
    if (!isRecord(value, id)) throw new Error(t('persistence:tasks.corrupt', { file: path, error: t('persistence:tasks.badShape') }));
    return value;
  }

  /** Every readable record, oldest first. Damaged files and stray names are skipped. */
  list(): TaskRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const records: TaskRecord[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const id = name.slice(0, -'.json'.length);
      if (!isValidTaskId(id)) continue;
      try {
        const rec = this.get(id);
        if (rec) records.push(rec);
      } catch {
        // Damaged: left out of the listing, still on disk for inspection.
      }
    }
    return records.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.task_id < b.task_id ? -1 : 1));
  }

  /** Marks as lost every running record owned by another arbor process that is gone (its
   * pid is dead, or its heartbeat has gone stale). A second arbor sharing the same home
   * leaves the first one's live tasks alone. Returns how many were marked. */
  markLostOnStartup(opts: { staleAfterMs?: number; now?: number } = {}): number {
    const staleAfter = opts.staleAfterMs ?? TASK_HEARTBEAT_STALE_MS;
    const now = opts.now ?? Date.now();
    let marked = 0;
    for (const rec of this.list()) {
      if (rec.status !== 'running' || rec.pid === process.pid) continue;
      const heartbeat = Date.parse(rec.heartbeat_at);
      const stale = !Number.isFinite(heartbeat) || now - heartbeat > staleAfter;
      if (pidAlive(rec.pid) && !stale) continue;
      this.update(rec.task_id, {
        status: 'lost',
        error: t('persistence:tasks.lost'),
        // Its last sign of life: the task ended no earlier than this.
        finished_at: Number.isFinite(heartbeat) ? rec.heartbeat_at : new Date(now).toISOString(),
      });
      marked++;
    }
    return marked;
  }

  /** The record as callers see it: progress gains elapsed_secs, measured from the start
   * (or creation) to the end (or `now`). */
  view(stored: TaskRecord, now: number = Date.now()): TaskView {
    const rec = withReceiptLines(stored);
    if (!rec.progress) return { ...rec, progress: null };
    const start = Date.parse(rec.started_at ?? rec.created_at);
    const end = rec.finished_at ? Date.parse(rec.finished_at) : now;
    const elapsed = Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, Math.floor((end - start) / 1000)) : 0;
    return { ...rec, progress: { ...rec.progress, elapsed_secs: elapsed } };
  }

  private write(path: string, rec: TaskRecord): void {
    try {
      makePrivateDir(this.dir);
      // Outputs and errors are model and tool text: scrubbed of known secrets like session
      // files, string by string so the JSON stays valid whatever a secret contains.
      const secrets = knownSecrets();
      const scrub = (_key: string, value: unknown) => (typeof value === 'string' ? scrubKnownSecrets(value, secrets) : value);
      writeFileAtomic(path, JSON.stringify(rec, scrub, 2) + '\n');
    } catch (err) {
      throw new Error(t('persistence:tasks.writeFailed', { file: path, error: (err as Error).message }), { cause: err });
    }
  }
}
