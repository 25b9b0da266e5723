// Per-child limits (max_child_tokens, max_child_cost_cents, max_child_seconds) against the
// loopback model: the child stops, its parent reads the literal message in a failed tool
// result and continues.
import { describe, expect, it } from 'vitest';
import { childBudgetExhausted, configuredLimits, narrowLimits } from '../../../src/runtime/childBudget.js';
import { delegationDefaults } from '../../../src/config/schema.js';
import type { LoopbackReply } from '../../support/loopbackModel.js';
import { baseToml, calls, heldReply, makeFixture, text, until, useTestClock, type Fixture } from '../../helpers/runtimeFixture.js';
import { firstUser, toolResults } from '../../support/wireBody.js';
import { mainAndWorker, type DelegateFixture } from '../delegate/helpers.js';
import { childAsked, spawnOne } from '../support/spawnScript.js';

let fx: Fixture | undefined;
let dfx: DelegateFixture | undefined;

const withUsage = (reply: LoopbackReply, input: number, output: number): LoopbackReply =>
  ({ ...reply, usage: { input, output } }) as LoopbackReply;

/** A root (with `delegation` in its config) that spawns one child, whose reply is `child`;
 * the root then answers "parent done". */
async function oneChild(delegation: string, child: () => LoopbackReply | Promise<LoopbackReply>) {
  fx = await makeFixture({
    toml: (u) => baseToml(u, delegation),
    respond: spawnOne('child task', child, 'parent done', 'call_1'),
  });
  return fx;
}

function childRun(f: Fixture) {
  return f.runtime.store
    .getState()
    .runs.values()
    .find((r) => r.kind === 'subagent')!;
}

function parentToolResult(f: Fixture): string {
  const last = f.server.requests.at(-1)!.body;
  return toolResults(last).find((m) => m.tool_call_id === 'call_1')!.content;
}

describe('the literal message', () => {
  it('names the limit, its value and the measured value', () => {
    expect(childBudgetExhausted('max_child_tokens', 2000, '2417')).toBe(
      'child budget exhausted: max_child_tokens = 2000, used 2417; the child was stopped',
    );
  });

  it('per-agent values narrow the delegation-wide ones (the smaller wins)', () => {
    const d = { ...delegationDefaults(), max_child_tokens: 5000, max_child_seconds: 30 };
    const a = { max_child_tokens: 1000, max_child_seconds: 60, max_child_cost_cents: 7 } as never;
    expect(configuredLimits(d, a)).toEqual({ max_child_tokens: 1000, max_child_seconds: 30, max_child_cost_cents: 7 });
    expect(configuredLimits(delegationDefaults(), undefined)).toEqual({});
    expect(narrowLimits({ max_child_tokens: 10 }, { max_child_tokens: 4, max_child_seconds: 2 })).toEqual({
      max_child_tokens: 4,
      max_child_seconds: 2,
    });
  });
});

describe('per-child limits through the runtime', () => {
  it('max_child_tokens: the child stops, the parent reads the literal failure and continues', async () => {
    fx = await oneChild('[delegation]\nmax_child_tokens = 2000\n', () => withUsage(text('child answer'), 2000, 417));
    await fx.runtime.startTurn('go');
    const child = childRun(fx);
    const message = 'child budget exhausted: max_child_tokens = 2000, used 2417; the child was stopped';
    expect(child).toMatchObject({ status: 'failed', error: message, limits: { max_child_tokens: 2000 } });
    expect(parentToolResult(fx)).toBe(`subagent run failed: ${message}`);
    const root = fx.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.kind === 'root')!;
    expect(root).toMatchObject({ status: 'completed', result: 'parent done' });
  });

  it('an agent value smaller than [delegation] wins', async () => {
    fx = await oneChild('max_child_tokens = 300\n[delegation]\nmax_child_tokens = 5000\n', () => withUsage(text('child answer'), 250, 60));
    await fx.runtime.startTurn('go');
    expect(childRun(fx).error).toBe('child budget exhausted: max_child_tokens = 300, used 310; the child was stopped');
    // The view words it from the code and values, in the current language.
    expect(childRun(fx)).toMatchObject({
      errorCode: 'childBudgetExhausted',
      errorParams: { key: 'max_child_tokens', limit: 300, used: '310' },
    });
  });

  it('under the limit nothing happens', async () => {
    fx = await oneChild('[delegation]\nmax_child_tokens = 2000\n', () => withUsage(text('child answer'), 100, 20));
    await fx.runtime.startTurn('go');
    expect(childRun(fx)).toMatchObject({ status: 'completed', result: 'child answer' });
    expect(parentToolResult(fx)).toBe('child answer');
  });

  it('max_child_cost_cents: priced usage stops the child', async () => {
    fx = await makeFixture({
      toml: (u) =>
        baseToml(u, '[delegation]\nmax_child_cost_cents = 150\n').replace(
          'model = "fake-model"',
          'model = "fake-model"\npricing = { input_per_mtok = 10000, output_per_mtok = 20000 }',
        ),
      // 100 in at $10000/Mtok = $1.00, 30 out at $20000/Mtok = $0.60: 160 cents.
      respond: spawnOne('child task', () => withUsage(text('child answer'), 100, 30), 'parent done', 'call_1'),
    });
    await fx.runtime.startTurn('go');
    const message = 'child budget exhausted: max_child_cost_cents = 150, used 160.00; the child was stopped';
    expect(childRun(fx)).toMatchObject({ status: 'failed', error: message });
    expect(parentToolResult(fx)).toBe(`subagent run failed: ${message}`);
  });

  it('max_child_seconds: active time; the child stops and the parent continues', async () => {
    fx = await oneChild('[delegation]\nmax_child_seconds = 0.5\n', () => text('slow child', 3000));
    const clock = useTestClock();
    const started = Date.now();
    const turn = fx.runtime.startTurn('go');
    await until(childAsked(fx, 'child task'), 5000, 'the child asked');
    await clock.passTime(500);
    await turn;
    expect(Date.now() - started).toBeLessThan(2500);
    const message = 'child budget exhausted: max_child_seconds = 0.5, used 0.5; the child was stopped';
    expect(childRun(fx)).toMatchObject({ status: 'failed', error: message });
    expect(parentToolResult(fx)).toBe(`subagent run failed: ${message}`);
  });

  it('max_child_seconds does not count paused time', async () => {
    const answer = heldReply();
    fx = await oneChild('[delegation]\nmax_child_seconds = 0.6\n', () => answer.held.then(() => text('slow child')));
    const clock = useTestClock();
    const unsubscribe = fx.runtime.store.subscribe((s) => {
      const child = s.runs.values().find((r) => r.kind === 'subagent');
      if (child && child.status === 'queued') fx!.runtime.pause(child.id);
    });
    const turn = fx.runtime.startTurn('go');
    await until(() => childRun(fx!)?.status === 'paused');
    unsubscribe();
    await clock.passTime(1000); // longer than the limit, but paused
    expect(childRun(fx).status).toBe('paused');
    fx.runtime.resume(childRun(fx).id);
    // Working now, its answer held: 0.4 s more is under the limit counted from the resume,
    // past it had the pause counted.
    await until(childAsked(fx, 'child task'), 5000, 'the child asked');
    await clock.passTime(400);
    expect(childRun(fx).status).toBe('running');
    answer.release();
    await turn;
    expect(childRun(fx)).toMatchObject({ status: 'completed', result: 'slow child' });
  });

  it('a child never gets more than its caller has left; both stop at their own limit', async () => {
    // main → delegate worker (max 1000 tokens) → worker spends 600, then spawns a subagent,
    // whose own limit (1000) is narrowed to the worker's remaining 400.
    dfx = await mainAndWorker({
      workerFields: 'max_child_tokens = 1000',
      tables: '[delegation]\nmax_child_tokens = 5000\n',
      worker: (req) => {
        if (firstUser(req.body) === 'sub task') return withUsage(text('sub answer'), 400, 50);
        return withUsage(calls({ id: 's1', name: 'spawn_subagent', args: { prompt: 'sub task' } }), 500, 100);
      },
    });
    await dfx.runtime.startTurn('go');
    const runs = dfx.runtime.store.getState().runs.values();
    const worker = runs.find((r) => r.kind === 'delegate')!;
    const sub = runs.find((r) => r.kind === 'subagent')!;
    expect(worker.limits).toEqual({ max_child_tokens: 1000 });
    expect(sub.limits).toEqual({ max_child_tokens: 400 });
    expect(sub).toMatchObject({
      status: 'failed',
      error: 'child budget exhausted: max_child_tokens = 400, used 450; the child was stopped',
    });
    expect(worker).toMatchObject({
      status: 'failed',
      error: 'child budget exhausted: max_child_tokens = 1000, used 1050; the child was stopped',
    });
    const mainLast = dfx.requestsOf('main').at(-1)!.body;
    expect(toolResults(mainLast)[0].content).toContain(worker.error!);
    expect(runs.find((r) => r.kind === 'root')).toMatchObject({ status: 'completed', result: 'main done' });
  });
});
