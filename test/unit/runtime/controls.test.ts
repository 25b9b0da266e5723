import { describe, expect, it } from 'vitest';
import {
  childRuns,
  heldReply,
  baseToml,
  calls,
  makeFixture,
  text,
  serverQuiet,
  until,
  useTestClock,
  type Fixture,
} from '../../helpers/runtimeFixture.js';
import { childAsked, jobs, spawnOne, spawnScript } from '../support/spawnScript.js';
import { listedRuns, resolveRunRef, runLabels } from '../../../src/runtime/runSelection.js';
import { SPAWN_PAUSED_REFUSAL } from '../../../src/runtime/spawnGate.js';
import { createRuntimeStore, addRun, continueRunNumbers, setRunStatus } from '../../../src/runtime/store.js';
import type { Run } from '../../../src/runtime/types.js';
import { makeRun } from '../../helpers/runs.js';
import { firstUser, messagesOf, toolResults, textOf as contentText } from '../../support/wireBody.js';
import { messagesWithRole } from '../../support/wireRequest.js';

let fx: Fixture | undefined;

const children = (f: Fixture) => childRuns(f);

/** A root (tools in parallel, `delegation` settings) that spawns job 1 … job n in one turn;
 * each child answers `answer(job)`, but only once the test calls `release()`, so the
 * children are live for as long as the test looks, whatever the machine's speed. */
async function heldJobs(n: number, delegation: string, answer: (job: string) => string, done: string) {
  const running = heldReply();
  fx = await makeFixture({
    toml: (u) => baseToml(u, `[runtime_profiles.default]\nparallel_tools = true\n[delegation]\n${delegation}\n`),
    respond: spawnScript({
      prompts: jobs(n, 1),
      child: (job) => running.held.then(() => text(answer(job))),
      done,
      id: (i) => `j${i + 1}`,
    }),
  });
  return { f: fx, release: running.release };
}

describe('queueing and queue positions', () => {
  it('children beyond max_concurrent wait with visible positions, then all finish', async () => {
    const { f, release } = await heldJobs(4, 'max_concurrent = 2', (job) => `did ${job}`, 'all done');
    const turn = f.runtime.startTurn('go');
    await until(() => children(f).length === 4 && children(f).filter((r) => r.status === 'running').length === 2);
    const queued = children(f).filter((r) => r.status === 'queued');
    expect(queued.map((r) => r.queuePosition).sort()).toEqual([1, 2]);
    release();
    await turn;
    expect(children(f).every((r) => r.status === 'completed' && r.queuePosition === undefined)).toBe(true);
  });
});

describe('limits refuse with the reason', () => {
  it('max_children_per_agent refuses beyond the limit, naming it and how to raise it', async () => {
    // The children answer only once the third spawn has been refused: two are live then.
    const { f, release } = await heldJobs(3, 'max_children_per_agent = 2', () => 'ok', 'done');
    const turn = f.runtime.startTurn('go');
    await until(() => f.runtime.store.getState().transcript.some((i) => i.kind === 'tool' && i.status === 'error'), 5000, 'a refusal');
    release();
    await turn;
    const results = toolResults(f.server.requests.at(-1)!.body);
    expect(results.filter((r) => r.content === 'ok')).toHaveLength(2);
    expect(results.find((r) => r.content !== 'ok')!.content).toMatch(
      /max_children_per_agent = 2.*raise \[delegation\] max_children_per_agent/,
    );
  });

  it('spawn pause refuses new spawns with the literal message', async () => {
    fx = await makeFixture({
      // The spawn is refused: no child ever asks.
      respond: spawnOne('x', () => text('never asked'), 'done', 's'),
    });
    fx.runtime.setSpawnPaused(true);
    await fx.runtime.startTurn('go');
    expect(toolResults(fx.server.requests.at(-1)!.body)[0].content).toBe(
      'Delegation spawning is paused. Clear the pause with p in /agents or /subagents resume before retrying.',
    );
    expect(SPAWN_PAUSED_REFUSAL).toContain('p in /agents');
    expect(children(fx)).toHaveLength(0);
  });
});

describe('pause and resume', () => {
  it('a paused child freezes at its next step boundary; resume continues with nothing repeated', async () => {
    let childCalls = 0;
    fx = await makeFixture({
      respond: spawnOne(
        'worker',
        (_, { body }) => {
          childCalls++;
          if (toolResults(body).length === 0) return { ...calls({ id: 'l', name: 'list_files', args: {} }), text: undefined };
          return text('worker finished');
        },
        'root done',
        'w',
      ),
    });
    // Pause the child as soon as it exists: it must not make its first model call.
    const unsub = fx.runtime.store.subscribe((s) => {
      const child = s.runs.values().find((r) => r.kind === 'subagent');
      if (child && child.status === 'queued' && !s.controls.spawnPaused) fx!.runtime.pause(child.id);
    });
    const turn = fx.runtime.startTurn('go');
    await until(() => children(fx!).some((r) => r.status === 'paused'));
    unsub();
    await serverQuiet(fx.server);
    expect(childCalls).toBe(0);
    const child = children(fx)[0];
    fx.runtime.resume(child.id);
    await turn;
    expect(childCalls).toBe(2);
    const run = fx.runtime.store.getState().runs.get(child.id);
    expect(run).toMatchObject({ status: 'completed', iterations: 2, toolsCompleted: 1 });
  });

  it('run_timeout_secs does not count paused time', async () => {
    const answer = heldReply();
    fx = await makeFixture({
      toml: (u) => baseToml(u, '[delegation]\nrun_timeout_secs = 1\n'),
      respond: spawnOne(
        'slow',
        () => answer.held.then(() => text('slow done')),
        ({ body }) => text(toolResults(body)[0].content),
        's',
      ),
    });
    const clock = useTestClock();
    const unsub = fx.runtime.store.subscribe((s) => {
      const child = s.runs.values().find((r) => r.kind === 'subagent');
      if (child && child.status === 'queued') fx!.runtime.pause(child.id);
    });
    const turn = fx.runtime.startTurn('go');
    await until(() => children(fx!).some((r) => r.status === 'paused'));
    unsub();
    await clock.passTime(1500); // longer than the timeout, but paused
    const child = children(fx)[0];
    expect(fx.runtime.store.getState().runs.get(child.id)!.status).toBe('paused');
    fx.runtime.resume(child.id);
    // Working now, its answer held: 0.7 s more is under the timeout counted from the resume,
    // past it had the pause counted.
    await until(childAsked(fx, 'slow'), 5000, 'the child asked');
    await clock.passTime(700);
    expect(fx.runtime.store.getState().runs.get(child.id)!.status).toBe('running');
    answer.release();
    await turn;
    expect(fx.runtime.store.getState().runs.get(child.id)!.status).toBe('completed');
  });

  it('a child that runs past run_timeout_secs ends timed_out and the parent continues', async () => {
    fx = await makeFixture({
      toml: (u) => baseToml(u, '[delegation]\nrun_timeout_secs = 1\n'),
      respond: spawnOne('hang', () => ({ kind: 'hang' }), 'parent continued', 's'),
    });
    const clock = useTestClock();
    const turn = fx.runtime.startTurn('go');
    await until(childAsked(fx, 'hang'), 5000, 'the child asked');
    await clock.passTime(1000);
    await turn;
    expect(children(fx)[0].status).toBe('timed_out');
    expect(toolResults(fx.server.requests.at(-1)!.body)[0].content).toBe('subagent run failed: timed out');
  });
});

describe('steer', () => {
  it('a message for a running child arrives at its next step boundary as a user message', async () => {
    let steered = false;
    fx = await makeFixture({
      respond: spawnOne(
        'worker',
        (_, { body }) => {
          const users = messagesWithRole(body, 'user').map((m) => contentText(m.content));
          const sent = messagesOf(body).length;
          if (users.includes('focus on tests')) {
            steered = true;
            return text('focused');
          }
          return calls({ id: `l${sent}`, name: 'list_files', args: { path: `.${'/.'.repeat(sent)}` } });
        },
        'root done',
        'w',
      ),
    });
    const turn = fx.runtime.startTurn('go');
    await until(() => children(fx!).some((r) => r.status === 'running' && r.iterations >= 1));
    expect(fx.runtime.steer(children(fx)[0].id, 'focus on tests')).toBe('delivered');
    await turn;
    expect(steered).toBe(true);
    const child = children(fx)[0];
    expect(
      fx.runtime.store
        .getState()
        .runTranscripts.get(child.id)!
        .some((i) => i.kind === 'user' && i.text === 'focus on tests'),
    ).toBe(true);
  });

  it('a message for a finished child starts a new turn in its history and posts the answer', async () => {
    fx = await makeFixture({
      respond: spawnOne(
        'worker',
        (_, { body }) => {
          const users = messagesWithRole(body, 'user');
          return text(users.length > 1 ? `follow-up saw ${users.length} user messages` : 'first answer');
        },
        'root done',
        'w',
      ),
    });
    await fx.runtime.startTurn('go');
    const child = children(fx)[0];
    expect(fx.runtime.steer(child.id, 'and then?')).toBe('continued');
    await until(() =>
      fx!.runtime.store.getState().transcript.some((i) => i.kind === 'notice' && i.text.includes('follow-up saw 2 user messages')),
    );
    const notice = fx.runtime.store.getState().transcript.find((i) => i.kind === 'notice' && i.text.includes('follow-up'))!;
    // The continuation is a new run with the next number; #1 still means the run that finished.
    expect(notice.kind === 'notice' && notice.text).toMatch(/^↳ main#2 \(continues main#1\): follow-up saw 2 user messages/);
    expect(fx.runtime.store.getState().runs.get(child.id)!.status).toBe('completed'); // terminal stays final
    const s = fx.runtime.store.getState();
    expect(resolveRunRef(s, listedRuns(s, 60), '1')).toMatchObject({ ok: true, run: { id: child.id, task: 'worker' } });
    expect(resolveRunRef(s, listedRuns(s, 60), '#2')).toMatchObject({ ok: true, run: { number: 2, task: 'and then?' } });
  });
});

describe('runaway guard', () => {
  const fanOut = (n: number, delay = 200) =>
    spawnScript({ prompts: jobs(n), child: () => text('ok', delay), done: 'done', id: (i) => `j${i}` });

  for (const [threshold, section, expectMeasured] of [
    ['max_tree_size', 'max_tree_size = 3', 4],
    ['max_spawns_per_minute', 'max_spawns_per_minute = 2', 3],
    ['max_tree_tokens', 'max_tree_tokens = 5', undefined],
  ] as const) {
    it(`trips on ${threshold}, pauses the tree and shows a banner`, async () => {
      fx = await makeFixture({
        toml: (u) =>
          baseToml(u, `[runtime_profiles.default]\nparallel_tools = true\n[delegation.runaway]\n${section}\non_trip = "pause_tree"\n`),
        respond: fanOut(4),
        runtime: { interactive: true },
      });
      const turn = fx.runtime.startTurn('go');
      await until(() => fx!.runtime.store.getState().controls.runaway.tripped);
      const state = fx.runtime.store.getState();
      expect(state.controls.runaway).toMatchObject({ tripped: true, threshold, action: 'pause_tree' });
      if (expectMeasured !== undefined) expect(state.controls.runaway.measured).toBe(expectMeasured);
      const banner = state.transcript.find((i) => i.kind === 'notice' && i.text.startsWith('Runaway guard'));
      expect(banner && banner.kind === 'notice' && banner.text).toContain(threshold);
      await until(() =>
        fx!.runtime.store
          .getState()
          .runs.values()
          .filter((r) => r.status !== 'completed')
          .every((r) => r.status === 'paused'),
      );
      expect(fx.runtime.resolveRunaway('resume')).toBe(true);
      // The guard re-arms at the next multiple of the limit: a tree that keeps growing past
      // it (tokens do, by tens per call) trips again, each time higher; keep answering.
      let finished = false;
      void turn.then(() => (finished = true));
      let lastLimit = state.controls.runaway.limit!;
      while (!finished) {
        await until(() => finished || fx!.runtime.store.getState().controls.runaway.tripped, 10000, 'a re-trip or the end of the turn');
        const again = fx.runtime.store.getState().controls.runaway;
        if (!again.tripped) continue;
        expect(again.limit!).toBeGreaterThan(lastLimit);
        lastLimit = again.limit!;
        fx.runtime.resolveRunaway('resume');
      }
      await turn;
      expect(
        fx.runtime.store
          .getState()
          .runs.values()
          .every((r) => r.status === 'completed'),
      ).toBe(true);
    });
  }

  it('trips on max_tree_cost_cents and kill_tree kills the live children; the root continues', async () => {
    fx = await makeFixture({
      toml: (u) =>
        baseToml(
          u,
          '[runtime_profiles.default]\nparallel_tools = true\n[delegation.runaway]\nmax_tree_cost_cents = 1\non_trip = "kill_tree"\n',
        ).replace('model = "fake-model"', 'model = "fake-model"\npricing = { input_per_mtok = 1000.0, output_per_mtok = 1000.0 }'),
      runtime: { interactive: true },
      respond: ({ body }) => {
        const first = firstUser(body);
        // job 0 finishes fast and expensive (20 000 tokens = 2 cents); the others would take 5 s.
        if (first === 'job 0') return { kind: 'text', chunks: ['pricey'], delayMs: 30, usage: { input: 10000, output: 10000 } };
        if (first.startsWith('job')) return { kind: 'text', chunks: ['slow'], delayMs: 5000, usage: { input: 1, output: 1 } };
        if (toolResults(body).length) return { kind: 'text', chunks: ['done'], usage: { input: 1, output: 1 } };
        return {
          ...calls(...[0, 1, 2].map((i) => ({ id: `j${i}`, name: 'spawn_subagent', args: { prompt: `job ${i}` } }))),
          usage: { input: 1, output: 1 },
        };
      },
    });
    const started = Date.now();
    await fx.runtime.startTurn('go');
    expect(Date.now() - started).toBeLessThan(4000);
    const state = fx.runtime.store.getState();
    expect(state.controls.runaway).toMatchObject({ tripped: true, threshold: 'max_tree_cost_cents', action: 'kill_tree', limit: 1 });
    const kids = children(fx);
    // job 0's usage arrives at the end of its stream, while it is still live: it is killed too.
    expect(kids.map((r) => r.status)).toEqual(['killed', 'killed', 'killed']);
    expect(state.controls.runaway.measured).toBeGreaterThan(1);
    expect(state.runs.values().find((r) => r.kind === 'root')!.status).toBe('completed');
    expect(state.controls.spawnPaused).toBe(true); // held until the user answers
    fx.runtime.resolveRunaway('kill');
    expect(fx.runtime.store.getState().controls.spawnPaused).toBe(false);
  });

  it('pause_spawning refuses new spawns until resolved', async () => {
    fx = await makeFixture({
      toml: (u) =>
        baseToml(
          u,
          '[runtime_profiles.default]\nparallel_tools = true\n[delegation.runaway]\nmax_tree_size = 2\non_trip = "pause_spawning"\n',
        ),
      respond: fanOut(3, 50),
      runtime: { interactive: true },
    });
    await fx.runtime.startTurn('go');
    expect(fx.runtime.store.getState().controls.spawnPaused).toBe(true);
    const results = toolResults(fx.server.requests.at(-1)!.body).map((r) => r.content);
    expect(results.filter((c) => c.startsWith('Delegation spawning is paused')).length).toBeGreaterThanOrEqual(1);
    fx.runtime.resolveRunaway('resume');
    expect(fx.runtime.store.getState().controls.spawnPaused).toBe(false);
  });
});

describe('id resolution', () => {
  function mk(id: string, alias: string, createdAt: number, extra: Partial<Run> = {}): Run {
    const child = { rootRunId: 'root', depth: 1, kind: 'subagent', status: 'running', parentRunId: 'root' } as const;
    return makeRun(id, { ...child, alias, task: 't', sessionKey: 's', model: 'm', createdAt, ...extra });
  }
  const store = createRuntimeStore('s');
  addRun(store, mk('root', 'main', 0, { kind: 'root', depth: 0, parentRunId: undefined }));
  addRun(store, mk('aaaa1111-0000', 'researcher', 1));
  addRun(store, mk('aaaa2222-0000', 'researcher', 2));
  addRun(store, mk('bbbb3333-0000', 'reviewer', 3));
  setRunStatus(store, 'aaaa1111-0000', 'completed');
  const s = () => store.getState();
  const list = () => listedRuns(s(), 60);

  it('labels and list order: active newest first, then finished', () => {
    // The number is the child's place in the session's creation order, whatever its alias.
    expect([...runLabels(s()).values()]).toEqual(['researcher#1', 'researcher#2', 'reviewer#3']);
    expect(list().map((r) => r.id)).toEqual(['bbbb3333-0000', 'aaaa2222-0000', 'aaaa1111-0000']);
  });

  it('resolves last, numbers, id prefixes and labels; reports ambiguity and unknowns', () => {
    expect(resolveRunRef(s(), list(), 'last')).toMatchObject({ ok: true, run: { id: 'bbbb3333-0000' } });
    expect(resolveRunRef(s(), list(), '2')).toMatchObject({ ok: true, run: { id: 'aaaa2222-0000' } });
    expect(resolveRunRef(s(), list(), '#3')).toMatchObject({ ok: true, run: { id: 'bbbb3333-0000' } });
    // A finished run keeps its number: #1 is the first child, not the first row listed.
    expect(resolveRunRef(s(), list(), '#1')).toMatchObject({ ok: true, run: { id: 'aaaa1111-0000' } });
    expect(resolveRunRef(s(), list(), 'reviewer#3')).toMatchObject({ ok: true, run: { id: 'bbbb3333-0000' } });
    expect(resolveRunRef(s(), list(), 'reviewer#1')).toMatchObject({ ok: false, reason: 'unknown' });
    expect(resolveRunRef(s(), list(), 'bbbb')).toMatchObject({ ok: true, run: { id: 'bbbb3333-0000' } });
    expect(resolveRunRef(s(), list(), 'researcher#2')).toMatchObject({ ok: true, run: { id: 'aaaa2222-0000' } });
    expect(resolveRunRef(s(), list(), 'rev')).toMatchObject({ ok: true, run: { id: 'bbbb3333-0000' } });
    expect(resolveRunRef(s(), list(), 'aaaa')).toMatchObject({
      ok: false,
      reason: 'ambiguous',
      candidates: ['researcher#2', 'researcher#1'],
    });
    expect(resolveRunRef(s(), list(), 'research')).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(resolveRunRef(s(), list(), '9')).toMatchObject({ ok: false, reason: 'unknown' });
    expect(resolveRunRef(s(), list(), 'zzz')).toMatchObject({ ok: false, reason: 'unknown' });
  });

  it('numbers never move: children created later, and a resumed session, number after them', () => {
    const own = createRuntimeStore('n');
    addRun(own, mk('r', 'main', 0, { kind: 'root', depth: 0, parentRunId: undefined }));
    addRun(own, mk('c1', 'researcher', 1));
    addRun(own, mk('c2', 'writer', 2));
    const before = resolveRunRef(own.getState(), listedRuns(own.getState(), 60), '2');
    for (let i = 0; i < 5; i++) addRun(own, mk(`later-${i}`, 'researcher', 10 + i));
    const after = resolveRunRef(own.getState(), listedRuns(own.getState(), 60), '2');
    expect(before).toMatchObject({ ok: true, run: { id: 'c2' } });
    expect(after).toMatchObject({ ok: true, run: { id: 'c2' } });
    expect(runLabels(own.getState()).get('later-4')).toBe('researcher#7');
    // A resumed session goes on from the numbers its file saved (and counts unnumbered ones).
    const resumed = createRuntimeStore('n');
    continueRunNumbers(resumed, [mk('old-1', 'researcher', 1, { number: 4 }), mk('old-2', 'writer', 2)]);
    addRun(resumed, mk('new-1', 'researcher', 3));
    expect(runLabels(resumed.getState()).get('new-1')).toBe('researcher#6');
  });

  it('archives finished runs counting from when they ended', () => {
    const later = Date.now() + 61 * 60_000;
    expect(listedRuns(s(), 60, later).map((r) => r.id)).toEqual(['bbbb3333-0000', 'aaaa2222-0000']);
  });
});

describe('runaway guard without an operator (headless)', () => {
  it('settles a pause_tree trip by killing the children, so the turn ends instead of waiting forever', async () => {
    fx = await makeFixture({
      toml: (u) =>
        baseToml(u, '[runtime_profiles.default]\nparallel_tools = true\n[delegation.runaway]\nmax_tree_size = 3\non_trip = "pause_tree"\n'),
      respond: spawnScript({ prompts: jobs(4), child: () => text('ok', 3000), done: 'done', id: (i) => `j${i}` }),
    });
    const started = Date.now();
    await fx.runtime.startTurn('go');
    expect(Date.now() - started).toBeLessThan(2500);
    const state = fx.runtime.store.getState();
    expect(children(fx).every((r) => r.status === 'killed')).toBe(true);
    expect(state.runs.values().find((r) => r.kind === 'root')!.status).toBe('completed');
    expect(state.transcript.some((i) => i.kind === 'notice' && i.text.startsWith('No operator to answer the runaway guard'))).toBe(true);
    expect(state.controls.runaway.tripped).toBe(false);
  });
});
