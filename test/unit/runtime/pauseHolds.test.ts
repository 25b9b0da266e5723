// A pause is shown as it really is: `pausing…` while the step in flight finishes, `paused`
// only once the run has stopped at a step boundary. And the runaway guard, once answered,
// re-arms at the next multiple of its limit instead of letting the tree grow unwatched.
import { describe, expect, it } from 'vitest';
import { heldReply, baseToml, calls, makeFixture, serverQuiet, text, until, type Fixture } from '../../helpers/runtimeFixture.js';
import { firstUser, toolResults } from '../../support/wireBody.js';
import { spawnOne, spawnScript } from '../support/spawnScript.js';
import { rearmedLimit } from '../../../src/runtime/runawayGuard.js';
import type { Run, RunStatus } from '../../../src/runtime/types.js';

let fx: Fixture | undefined;

const firstOfKind = (f: Fixture, kind: Run['kind']) =>
  f.runtime.store
    .getState()
    .runs.values()
    .find((r) => r.kind === kind);
const childOf = (f: Fixture) => firstOfKind(f, 'subagent');
const rootOf = (f: Fixture) => firstOfKind(f, 'root')!;

/** Every status the first child passes through, in order, without repeats. */
function recordChildStatuses(f: Fixture): RunStatus[] {
  const seen: RunStatus[] = [];
  f.runtime.store.subscribe((s) => {
    const child = s.runs.values().find((r) => r.kind === 'subagent');
    if (child && seen.at(-1) !== child.status) seen.push(child.status);
  });
  return seen;
}

describe('pausing… until the pause holds', () => {
  it('a child paused mid model call reads pausing, then paused once its loop stops at the tool boundary', async () => {
    let workerCalls = 0;
    const worker = heldReply();
    fx = await makeFixture({
      respond: spawnOne('worker', (_, { body }) => {
        workerCalls++;
        // The model asks for a tool only once the test has paused the tree: the pause lands mid call.
        if (toolResults(body).length === 0) return worker.held.then(() => calls({ id: 'l', name: 'list_files', args: {} }));
        return text('worker finished');
      }),
      runtime: { interactive: true },
    });
    const statuses = recordChildStatuses(fx);
    const turn = fx.runtime.startTurn('go');
    // The worker's first model call is in flight (the server holds it until worker.release()).
    await until(() => workerCalls === 1 && childOf(fx!)?.status === 'running');
    const child = childOf(fx)!;
    const root = rootOf(fx);
    // Pause the whole tree: neither run has stopped yet.
    fx.runtime.pause(root.id);
    expect(fx.runtime.store.getState().runs.get(child.id)!.status).toBe('pausing');
    expect(fx.runtime.store.getState().runs.get(root.id)!.status).toBe('pausing');
    worker.release();

    await until(() => fx!.runtime.store.getState().runs.get(child.id)!.status === 'paused', 5000, 'the pause to hold');
    // It held at the boundary before its tool call: the tool did not run.
    expect(fx.runtime.store.getState().runs.get(child.id)!.toolsCompleted).toBe(0);
    // The root's step in flight is a wait on that child alone: it is held too.
    expect(fx.runtime.store.getState().runs.get(root.id)!.status).toBe('paused');
    await serverQuiet(fx.server);
    expect(workerCalls).toBe(1);
    expect(statuses).toEqual(['queued', 'running', 'pausing', 'paused']);

    fx.runtime.resume(root.id);
    await turn;
    expect(fx.runtime.store.getState().runs.get(child.id)).toMatchObject({ status: 'completed', toolsCompleted: 1 });
    expect(statuses.slice(-2)).toEqual(['running', 'completed']);
  });

  it('a child that finishes its answer while pausing ends completed and is never shown paused', async () => {
    const worker = heldReply();
    fx = await makeFixture({
      respond: spawnOne('worker', () => worker.held.then(() => text('worker answer'))),
      runtime: { interactive: true },
    });
    const statuses = recordChildStatuses(fx);
    const turn = fx.runtime.startTurn('go');
    await until(() => fx!.server.requests.some((r) => firstUser(r.body) === 'worker') && childOf(fx!)?.status === 'running');
    const child = childOf(fx)!;
    fx.runtime.pause(child.id);
    worker.release();
    await until(() => fx!.runtime.store.getState().runs.get(child.id)!.status === 'completed', 5000, 'the child to finish');
    expect(statuses).toEqual(['queued', 'running', 'pausing', 'completed']);
    expect(statuses).not.toContain('paused');
    fx.runtime.resume(rootOf(fx).id);
    await turn;
  });

  it('a child paused before it started holds at once', async () => {
    // The running child answers only once the test is done with the queued one, so that one
    // stays queued for as long as the test needs, whatever the machine's speed.
    const running = heldReply();
    fx = await makeFixture({
      toml: (u) => baseToml(u, '[delegation]\nmax_concurrent = 1\n[runtime_profiles.default]\nparallel_tools = true\n'),
      respond: spawnScript({ prompts: ['job a', 'job b'], child: (job) => running.held.then(() => text(`did ${job}`)) }),
      runtime: { interactive: true },
    });
    const turn = fx.runtime.startTurn('go');
    const queued = () =>
      fx!.runtime.store
        .getState()
        .runs.values()
        .find((r) => r.kind === 'subagent' && r.status === 'queued');
    await until(() => queued() !== undefined);
    const q = queued()!;
    fx.runtime.pause(q.id);
    expect(fx.runtime.store.getState().runs.get(q.id)!.status).toBe('paused');
    fx.runtime.resume(q.id);
    running.release();
    await turn;
    expect(fx.runtime.store.getState().runs.get(q.id)!.status).toBe('completed');
  });
});

describe('the runaway guard re-arms after an answer', () => {
  it('rearmedLimit is the next multiple of the limit past what was measured', () => {
    expect(rearmedLimit(8, 9)).toBe(16);
    expect(rearmedLimit(8, 13)).toBe(16);
    expect(rearmedLimit(8, 16)).toBe(24);
    expect(rearmedLimit(8, 25)).toBe(32);
  });

  it('a tree that keeps growing after a resume trips again at the next multiple, and each notice says where', async () => {
    fx = await makeFixture({
      toml: (u) =>
        baseToml(
          u,
          '[runtime_profiles.default]\nparallel_tools = true\n[delegation]\nmax_children_per_agent = 10\n[delegation.runaway]\nmax_tree_size = 2\non_trip = "pause_tree"\n',
        ),
      respond: ({ body }) => {
        const first = firstUser(body);
        if (first.startsWith('job')) return text(`did ${first}`, 20);
        const done = toolResults(body).length;
        if (done >= 6) return text('root done');
        // Three rounds of two spawns each: the tree grows to 3, 5 and 7 runs.
        return calls(...[done + 1, done + 2].map((n) => ({ id: `j${n}`, name: 'spawn_subagent', args: { prompt: `job ${n}` } })));
      },
      runtime: { interactive: true },
    });
    const turn = fx.runtime.startTurn('go');
    const runaway = () => fx!.runtime.store.getState().controls.runaway;
    const notices = () => fx!.runtime.store.getState().transcript.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));

    await until(() => runaway().tripped, 5000, 'the first trip');
    expect(runaway()).toMatchObject({ threshold: 'max_tree_size', limit: 2, measured: 3 });
    expect(fx.runtime.resolveRunaway('resume')).toBe(true);
    expect(notices().at(-1)).toBe('Runaway guard: resumed by the user. The guard re-arms: max_tree_size trips again past 4.');

    await until(() => runaway().tripped, 5000, 'the second trip');
    expect(runaway()).toMatchObject({ threshold: 'max_tree_size', limit: 4, measured: 5 });
    expect(notices().at(-1)).toMatch(
      /^Runaway guard: max_tree_size passed 4 \(re-armed at the next multiple of 2 after the last answer\), the tree measured 5\./,
    );
    expect(fx.runtime.resolveRunaway('resume')).toBe(true);
    expect(notices().at(-1)).toContain('trips again past 6.');

    await until(() => runaway().tripped, 5000, 'the third trip');
    expect(runaway()).toMatchObject({ limit: 6, measured: 7 });
    fx.runtime.resolveRunaway('resume');
    await turn;
    const runs = fx.runtime.store.getState().runs.values();
    expect(runs).toHaveLength(7);
    expect(runs.every((r) => r.status === 'completed')).toBe(true);
  });
});

describe('a pause asked of a run being killed', () => {
  it('pauses nothing and says so: the root turn killed mid model call is not reported paused', async () => {
    let rootCalls = 0;
    const answer = heldReply();
    fx = await makeFixture({
      respond: async () => {
        rootCalls++;
        return answer.held.then(() => text('slow answer'));
      },
      runtime: { interactive: true },
    });
    const turn = fx.runtime.startTurn('go');
    await until(() => rootCalls === 1);
    const root = rootOf(fx);
    expect(fx.runtime.kill(root.id).killed).toBe(true);
    // The kill is still unwinding: the row is not terminal yet, but there is nothing to pause.
    expect(fx.runtime.store.getState().runs.get(root.id)!.status).not.toBe('pausing');
    expect(fx.runtime.pause(root.id)).toBe(0);
    expect(fx.runtime.store.getState().runs.get(root.id)!.status).not.toMatch(/^paus/);
    answer.release();
    await turn;
    expect(fx.runtime.pause(root.id)).toBe(0);
  });

  it('counts every run it paused', async () => {
    const worker = heldReply();
    fx = await makeFixture({
      respond: spawnOne('worker', () => worker.held.then(() => text('worker done'))),
      runtime: { interactive: true },
    });
    const turn = fx.runtime.startTurn('go');
    await until(() => childOf(fx!)?.status === 'running');
    const root = rootOf(fx);
    expect(fx.runtime.pause(root.id)).toBe(2);
    fx.runtime.resume(root.id);
    worker.release();
    await turn;
  });
});
