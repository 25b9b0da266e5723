// Shared by the /agents and /subagents tests: a RuntimeApi over a real store (driven with
// the real mutators) that records every action and plays the runtime's part, run
// builders, and mounting helpers.
import React from 'react';
import { render } from 'ink-testing-library';
import { addRun, appendItem, createRuntimeStore, descendantsOf, setRunStatus, type RuntimeStore } from '../../../src/runtime/store.js';
import type { RuntimeApi } from '../../../src/runtime/runtimeApi.js';
import { isTerminal, type Run, type RunKind, type RunStatus } from '../../../src/runtime/types.js';
import { AgentsPane } from '../../../src/ui/agents/AgentsPane.js';
import { App } from '../../../src/ui/App.js';
import { agentsCommands, agentsKeyBindings } from '../../../src/ui/agents/register.js';
import { sleep, waitFor } from '../harness.js';
import { pressInto, settle } from '../settle.js';
import { makeRun } from '../../helpers/runs.js';
import { WithoutCapabilities } from '../withoutCapabilities.js';

export type Call = [string, ...unknown[]];

export class RecordingRuntime extends WithoutCapabilities implements RuntimeApi {
  readonly store: RuntimeStore = createRuntimeStore('s1', {
    agentAlias: 'main',
    providerName: 'local',
    providerLabel: 'offline/echo',
    configWarnings: [],
  });
  readonly calls: Call[] = [];
  steerOutcome: 'delivered' | 'continued' | 'unknown' = 'delivered';

  callsOf(name: string): unknown[][] {
    return this.calls.filter((c) => c[0] === name).map((c) => c.slice(1));
  }
  private live(runId: string): Run[] {
    const s = this.store.getState();
    return [s.runs.get(runId), ...descendantsOf(s, runId)].filter((r): r is Run => r !== undefined && !isTerminal(r.status));
  }

  async startTurn(text: string): Promise<void> {
    this.calls.push(['startTurn', text]);
  }
  interrupt(): void {
    this.calls.push(['interrupt']);
  }
  answerApproval(): void {}
  clear(): void {}
  /** Runs in `stopping` are being killed: like the supervisor, pause leaves them be. */
  readonly stopping = new Set<string>();
  pause(runId: string): number {
    this.calls.push(['pause', runId]);
    const targets = this.live(runId).filter((r) => !this.stopping.has(r.id));
    for (const r of targets) setRunStatus(this.store, r.id, 'paused');
    return targets.length;
  }
  resume(runId: string): void {
    this.calls.push(['resume', runId]);
    const guard = this.store.getState().controls.runaway;
    if (guard.tripped && guard.rootRunId === runId) this.clearGuard();
    for (const r of this.live(runId))
      if (r.status === 'paused') setRunStatus(this.store, r.id, r.startedAt === undefined ? 'queued' : 'running');
  }
  kill(runId: string): { killed: boolean; descendants: number } {
    this.calls.push(['kill', runId]);
    const targets = this.live(runId);
    if (!targets.length || targets[0].id !== runId) return { killed: false, descendants: 0 };
    for (const r of targets.slice().reverse()) setRunStatus(this.store, r.id, 'killed');
    return { killed: true, descendants: targets.length - 1 };
  }
  recordedRuns(): never {
    throw new Error('the /agents tests record no session file');
  }

  steer(runId: string, message: string): 'delivered' | 'continued' | 'unknown' {
    this.calls.push(['steer', runId, message]);
    return this.steerOutcome;
  }
  setSpawnPaused(paused: boolean): void {
    this.calls.push(['setSpawnPaused', paused]);
    this.store.setState((s) => ({ controls: { ...s.controls, spawnPaused: paused } }));
  }
  resolveRunaway(choice: 'resume' | 'kill'): boolean {
    this.calls.push(['resolveRunaway', choice]);
    const guard = this.store.getState().controls.runaway;
    if (!guard.tripped || !guard.rootRunId) return false;
    if (choice === 'kill') for (const r of descendantsOf(this.store.getState(), guard.rootRunId)) setRunStatus(this.store, r.id, 'killed');
    this.clearGuard();
    for (const r of this.live(guard.rootRunId)) if (r.status === 'paused') setRunStatus(this.store, r.id, 'running');
    return true;
  }
  async dispose(): Promise<void> {}

  private clearGuard(): void {
    this.store.setState((s) => ({ controls: { ...s.controls, runaway: { tripped: false } } }));
  }

  // ---- the runtime's side, for tests ----

  trip(rootRunId: string, threshold = 'max_tree_size', limit = 4, measured = 5, action = 'pause_tree'): void {
    this.store.setState((s) => ({
      controls: { ...s.controls, runaway: { tripped: true, threshold, limit, measured, rootRunId, action, at: Date.now() } },
    }));
  }
}

let seq = 0;
const T0 = Date.now();

export interface RunSpec {
  id?: string;
  parent?: string;
  alias?: string;
  kind?: RunKind;
  status?: RunStatus;
  task?: string;
  patch?: Partial<Run>;
}

/** Adds a run through the real mutators: created queued, then moved to `status`. Ids are
 * hex-like so id-prefix resolution can be tested. */
export function addTestRun(rt: RecordingRuntime, spec: RunSpec = {}): Run {
  const s = rt.store.getState();
  const parent = spec.parent ? s.runs.get(spec.parent) : undefined;
  const n = ++seq;
  const id = spec.id ?? `${n.toString(16).padStart(4, '0')}beef-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const kind = spec.kind ?? (parent ? 'subagent' : 'root');
  const own = kind === 'background' || !parent;
  const run: Run = makeRun(id, {
    parentRunId: kind === 'background' ? undefined : parent?.id,
    rootRunId: own ? id : parent.rootRunId,
    depth: own ? 0 : parent.depth + 1,
    alias: spec.alias ?? 'main',
    kind,
    task: spec.task ?? `task ${n}`,
    sessionKey: kind === 'root' ? 'session-s1' : `${kind}-${id}`,
    createdAt: T0 + n,
    ...spec.patch,
  });
  addRun(rt.store, run);
  const status = spec.status ?? 'running';
  if (status !== 'queued') {
    if (status !== 'running') setRunStatus(rt.store, id, 'running');
    setRunStatus(rt.store, id, status);
  }
  return rt.store.getState().runs.get(id)!;
}

export function say(rt: RecordingRuntime, runId: string, kind: 'user' | 'assistant', text: string): void {
  const id = `i${++seq}`;
  if (kind === 'user') appendItem(rt.store, runId, { id, kind: 'user', text, at: Date.now() });
  else appendItem(rt.store, runId, { id, kind: 'assistant', runId, text, at: Date.now() });
}

export function tool(
  rt: RecordingRuntime,
  runId: string,
  name: string,
  args: unknown,
  status: 'ok' | 'error' | 'running',
  result?: string,
): void {
  const id = `i${++seq}`;
  appendItem(rt.store, runId, {
    id,
    kind: 'tool',
    runId,
    callId: `c${id}`,
    name,
    args,
    rawArgs: JSON.stringify(args),
    status,
    result,
    startedAt: Date.now(),
  });
}

const ANSI = /\u001B\[[0-9;?]*[ -/]*[@-~]/g;
export const plain = (s: string | undefined) => (s ?? '').replace(ANSI, '');

export const KEYS = { ESC: '\u001B', UP: '\u001B[A', DOWN: '\u001B[B', ENTER: '\r', CTRL_T: '\u0014' };
export { sleep, waitFor };

/** Mounts the pane alone, the way the App renders it. */
export async function mountPane(rt: RuntimeApi, opts: { width?: number; maxRows?: number; archiveAfterMinutes?: number } = {}) {
  let closed = 0;
  let app!: ReturnType<typeof render>;
  await settle(() => {
    app = render(
      <AgentsPane
        runtime={rt}
        width={opts.width ?? 100}
        maxRows={opts.maxRows ?? 20}
        close={() => {
          closed++;
        }}
        archiveAfterMinutes={opts.archiveAfterMinutes ?? 60}
      />,
    );
  });
  return {
    app,
    frame: () => plain(app.lastFrame()),
    lines: () => plain(app.lastFrame()).split('\n'),
    press: (data: string) => pressInto(app.stdin, data),
    get closed() {
      return closed;
    },
  };
}

/** The real App with the /agents pane and commands mounted the way the CLI mounts them. */
export async function mountApp(rt: RecordingRuntime) {
  const opts = { archiveAfterMinutes: 60 };
  let app!: ReturnType<typeof render>;
  await settle(() => {
    app = render(
      <App
        runtime={rt}
        sessions={{ list: () => [], currentId: 'x' }}
        onExit={() => {}}
        commands={agentsCommands(opts)}
        keyBindings={agentsKeyBindings(opts)}
      />,
    );
  });
  return {
    frame: () => plain(app.lastFrame()),
    press: (data: string) => pressInto(app.stdin, data),
    /** Writes without waiting: keys that land before React renders again. */
    burst(...data: string[]) {
      for (const d of data) app.stdin.write(d);
    },
  };
}
