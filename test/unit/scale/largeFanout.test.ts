// A 1,000-child fan-out through the real runtime and the loopback model: every child's
// answer comes back to its own call, none lost or doubled; and kill and pause issued while
// the children are still being started in groups reach every child, started or not.
import { describe, expect, it } from 'vitest';
import { isTerminal } from '../../../src/model/run.js';
import { childRuns, wideToml, firstUserText, makeFixture, text, toolMessages, until, type Fixture } from '../../helpers/runtimeFixture.js';
import { expectAllAnswered, spawnScript } from '../support/spawnScript.js';

let fx: Fixture | undefined;

/** The root spawns `child 0` … `child <n-1>` (calls `call_<i>`); each answers `answer <i>`. */
const fanout = (n: number, childDelayMs = 0) =>
  spawnScript({
    prompts: Array.from({ length: n }, (_, i) => `child ${i}`),
    child: (prompt) => text(`answer ${prompt.slice('child '.length)}`, childDelayMs),
    done: 'root done',
    id: (i) => `call_${i}`,
  });

const children = (f: Fixture) => childRuns(f, 'subagent');

describe('a fan-out of 1,000 children', () => {
  it('completes, and every result is returned to its own call exactly once', async () => {
    const N = 1000;
    fx = await makeFixture({ toml: wideToml(N), respond: fanout(N) });
    await fx.runtime.startTurn('go');
    const kids = children(fx);
    expect(kids).toHaveLength(N);
    expect(kids.every((r) => r.status === 'completed')).toBe(true);
    expect(new Set(kids.map((r) => r.task)).size).toBe(N);
    const last = fx.server.requests.at(-1)!.body;
    const results = toolMessages(last);
    expect(results).toHaveLength(N);
    expect(results.map((r) => r.tool_call_id)).toEqual(Array.from({ length: N }, (_, i) => `call_${i}`));
    for (const r of results) expect(r.content).toBe(`answer ${r.tool_call_id.slice(5)}`);
    // One request per child and two for the root: nobody was started twice.
    expect(fx.server.requests).toHaveLength(N + 2);
  }, 120_000);
});

describe('kill and pause while a large fan-out is still starting', () => {
  it('a kill of the root as the first children appear ends every child, started or not, and the turn', async () => {
    const N = 200;
    fx = await makeFixture({ toml: wideToml(N), respond: fanout(N, 60_000) });
    const f = fx;
    let killed = false;
    f.runtime.store.subscribe((s) => {
      if (killed || s.runOrder.length < 2) return;
      killed = true;
      const root = s.runs.get(s.runOrder[0])!;
      queueMicrotask(() => f.runtime.kill(root.id));
    });
    await f.runtime.startTurn('go');
    expect(killed).toBe(true);
    const kids = children(f);
    // No child outlives the kill, and none that was not yet created is created afterwards.
    expect(kids.every((r) => isTerminal(r.status))).toBe(true);
    expect(kids.length).toBeLessThan(N);
    expect(f.server.requests.filter((r) => /^child /.test(firstUserText(r.body))).length).toBeLessThanOrEqual(kids.length);
  }, 60_000);

  it('a pause of the root as the first children appear holds the tree: calls not yet started wait for the resume, which finishes all', async () => {
    const N = 100;
    fx = await makeFixture({ toml: wideToml(N), respond: fanout(N) });
    const f = fx;
    let rootId: string | undefined;
    f.runtime.store.subscribe((s) => {
      if (rootId || s.runOrder.length < 2) return;
      rootId = s.runOrder[0];
      f.runtime.pause(rootId);
    });
    const turn = f.runtime.startTurn('go');
    const rootStatus = () => f.runtime.store.getState().runs.get(rootId ?? '')?.status;
    await until(() => rootStatus() === 'paused', 30_000, 'the root held');
    // Held means held: every child created so far waits (or had already finished), and the
    // calls behind them have not created children.
    expect(children(f).every((r) => r.status === 'paused' || isTerminal(r.status))).toBe(true);
    expect(children(f).length).toBeLessThan(N);
    f.runtime.resume(rootId!);
    await turn;
    expectAllAnswered(f, N);
  }, 60_000);
});
