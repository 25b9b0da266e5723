// Shared by the /agents and /subagents tests: run builders over the one UI-test runtime
// (FakeRuntime: its pause, resume and kill are the real supervisor's), and mounting helpers.
import React from 'react';
import { appendItem } from '../../../src/runtime/store.js';
import type { RuntimeApi } from '../../../src/runtime/runtimeApi.js';
import type { Run, RunKind, RunStatus } from '../../../src/runtime/types.js';
import { AgentsPane } from '../../../src/ui/agents/AgentsPane.js';
import { agentsCommands, agentsKeyBindings } from '../../../src/ui/agents/register.js';
import { KEYS, mount, plain, waitFor } from '../harness.js';
import { pressInto, renderSettled } from '../settle.js';
import { makeRun } from '../../helpers/runs.js';
import { FakeRuntime } from '../fakeRuntime.js';

export { FakeRuntime, KEYS, plain, waitFor };

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
export function addTestRun(rt: FakeRuntime, spec: RunSpec = {}): Run {
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
  rt.addRun(run, spec.status ?? 'running');
  return rt.store.getState().runs.get(id)!;
}

export function say(rt: FakeRuntime, runId: string, kind: 'user' | 'assistant', text: string): void {
  const id = `i${++seq}`;
  if (kind === 'user') appendItem(rt.store, runId, { id, kind: 'user', text, at: Date.now() });
  else appendItem(rt.store, runId, { id, kind: 'assistant', runId, text, at: Date.now() });
}

export function tool(
  rt: FakeRuntime,
  runId: string,
  name: string,
  args: unknown,
  status: 'ok' | 'error' | 'running',
  result?: string,
): void {
  rt.addTool(name, args, status, result, runId);
}

/** Mounts the pane alone, the way the App renders it. */
export async function mountPane(rt: RuntimeApi, opts: { width?: number; maxRows?: number; archiveAfterMinutes?: number } = {}) {
  let closed = 0;
  const app = await renderSettled(
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
export function mountApp(rt: FakeRuntime) {
  const opts = { archiveAfterMinutes: 60 };
  return mount({ runtime: rt, props: { commands: agentsCommands(opts), keyBindings: agentsKeyBindings(opts) } });
}
