// Fan-out confirmation ([delegation] confirm_fanout_over) through the runtime and the
// loopback model: approve all, reduce the count, deny, and headless with and without --yes.
import { describe, expect, it } from 'vitest';
import { plannedChildren } from '../../../src/runtime/fanout.js';
import { declinedCalls, startedFor } from '../../../src/model/fanoutPlan.js';
import { FANOUT_DECLINED } from '../../../src/runtime/fanoutDeclined.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { spawnSubagentTool } from '../../../src/tools/spawnSubagent.js';
import { createDelegateTool } from '../../../src/tools/delegate/tool.js';
import type { PendingFanout } from '../../../src/model/controls.js';
import type { ToolCallRequest } from '../../../src/model/messages.js';
import { toolResults } from '../../support/wireBody.js';
import { mainAndWorker, type DelegateFixture } from '../delegate/helpers.js';
import { childRuns, baseToml, makeFixture, text, until, useTestClock, type Fixture } from '../../helpers/runtimeFixture.js';
import { spawnScript } from '../support/spawnScript.js';

let fx: Fixture | undefined;
let dfx: DelegateFixture | undefined;

const TASKS = ['task one', 'task two', 'task three', 'task four'];

/** The root asks for a child per task (calls c1, c2, …) in one turn; each child answers
 * "done: <task>"; the root then says `done`. */
const spawning = (tasks: string[], done = 'parent done', id = (i: number) => `c${i + 1}`) =>
  spawnScript({ prompts: tasks, child: (task) => text(`done: ${task}`), done, id });
const fourChildren = spawning(TASKS);

const pricedToml = (u: string, extra = '') =>
  baseToml(u, `[delegation]\nconfirm_fanout_over = 2\nmax_children_per_agent = 10\n${extra}`).replace(
    'model = "fake-model"',
    'model = "fake-model"\npricing = { input_per_mtok = 3, output_per_mtok = 15 }',
  );

async function interactive(answer: (f: PendingFanout) => number): Promise<{ fx: Fixture; seen: PendingFanout[] }> {
  const f = await makeFixture({ toml: (u) => pricedToml(u), respond: fourChildren, runtime: { interactive: true } });
  const seen: PendingFanout[] = [];
  f.runtime.store.subscribe((s) => {
    const pending = s.controls.fanouts?.[0];
    if (pending && !seen.some((p) => p.id === pending.id)) {
      seen.push(pending);
      queueMicrotask(() => f.runtime.answerFanout!(pending.id, answer(pending)));
    }
  });
  return { fx: f, seen };
}

function results(f: Fixture): Record<string, string> {
  const last = f.server.requests.at(-1)!.body;
  return Object.fromEntries(toolResults(last).map((m) => [m.tool_call_id, m.content]));
}

const children = (f: Fixture) => childRuns(f, 'subagent');

describe('fan-out confirmation', () => {
  it('shows the planned children with their model and a cost estimate, and approving all starts them all', async () => {
    const r = await interactive((p) => p.children.length);
    fx = r.fx;
    await fx.runtime.startTurn('go');
    expect(r.seen).toHaveLength(1);
    const p = r.seen[0];
    expect(p.limit).toBe(2);
    expect(p.children.map((c) => [c.task, c.agent, c.model, c.tool])).toEqual(
      TASKS.map((task) => [task, 'main', 'openai-compatible/fake-model', 'spawn_subagent']),
    );
    // "You are main." (13 characters) + the task, at ~4 characters a token, at $3/Mtok.
    expect(p.children[0].inputTokens).toBe(Math.ceil((13 + 'task one'.length) / 4));
    expect(p.estimatedUsd).toBeCloseTo((p.children.reduce((n, c) => n + c.inputTokens, 0) * 3) / 1e6, 12);
    expect(p.unpriced).toBe(0);
    expect(children(fx)).toHaveLength(4);
    expect(results(fx)).toEqual(Object.fromEntries(TASKS.map((t, i) => [`c${i + 1}`, `done: ${t}`])));
    expect(fx.runtime.store.getState().controls.fanouts).toEqual([]);
  });

  it('reducing the count starts the first K; the rest get the literal declined result', async () => {
    const r = await interactive(() => 2);
    fx = r.fx;
    await fx.runtime.startTurn('go');
    expect(children(fx).map((c) => c.task)).toEqual(['task one', 'task two']);
    expect(results(fx)).toEqual({ c1: 'done: task one', c2: 'done: task two', c3: FANOUT_DECLINED, c4: FANOUT_DECLINED });
    expect(FANOUT_DECLINED).toBe(
      'The operator declined to start this child (fan-out confirmation: more children than [delegation] confirm_fanout_over in one turn). Do not retry it; continue with what you have, or ask the user.',
    );
    const s = fx.runtime.store.getState();
    const cards = s.transcript.filter((i) => i.kind === 'tool');
    expect(cards.map((c) => (c.kind === 'tool' ? c.status : ''))).toEqual(['ok', 'ok', 'denied', 'denied']);
    expect(s.transcript.some((i) => i.kind === 'notice' && i.text.includes('2 of 4 children started'))).toBe(true);
    expect(s.runs.values().find((x) => x.kind === 'root')).toMatchObject({ status: 'completed', result: 'parent done' });
  });

  it('denying starts none; every call reads declined and the parent continues', async () => {
    const r = await interactive(() => 0);
    fx = r.fx;
    await fx.runtime.startTurn('go');
    expect(children(fx)).toHaveLength(0);
    expect(results(fx)).toEqual({ c1: FANOUT_DECLINED, c2: FANOUT_DECLINED, c3: FANOUT_DECLINED, c4: FANOUT_DECLINED });
    expect(
      fx.runtime.store
        .getState()
        .runs.values()
        .find((x) => x.kind === 'root')?.result,
    ).toBe('parent done');
  });

  it('at or under the threshold nothing is asked', async () => {
    fx = await makeFixture({ toml: (u) => pricedToml(u), respond: spawning(TASKS.slice(0, 2)), runtime: { interactive: true } });
    let asked = false;
    fx.runtime.store.subscribe((s) => (asked ||= (s.controls.fanouts ?? []).length > 0));
    await fx.runtime.startTurn('go');
    expect(asked).toBe(false);
    expect(children(fx)).toHaveLength(2);
  });

  it('headless without --yes: denied, with a warning naming the count and the limit', async () => {
    fx = await makeFixture({ toml: (u) => pricedToml(u), respond: fourChildren });
    await fx.runtime.startTurn('go');
    expect(children(fx)).toHaveLength(0);
    expect(Object.values(results(fx))).toEqual([FANOUT_DECLINED, FANOUT_DECLINED, FANOUT_DECLINED, FANOUT_DECLINED]);
    const notice = fx.runtime.store.getState().transcript.find((i) => i.kind === 'notice');
    expect(notice).toMatchObject({
      level: 'warn',
      text: 'A model turn asked to start 4 children, more than [delegation] confirm_fanout_over = 2; with no operator (headless -p) none were started. Re-run with --yes to allow large fan-outs.',
    });
  });

  it('headless with --yes: all start', async () => {
    fx = await makeFixture({ toml: (u) => pricedToml(u), respond: fourChildren, runtime: { autoYes: true } });
    await fx.runtime.startTurn('go');
    expect(children(fx)).toHaveLength(4);
  });

  it('a run stopped while its question waits starts nothing', async () => {
    fx = await makeFixture({ toml: (u) => pricedToml(u), respond: fourChildren, runtime: { interactive: true } });
    const turn = fx.runtime.startTurn('go');
    await until(() => (fx!.runtime.store.getState().controls.fanouts ?? []).length === 1);
    fx.runtime.interrupt();
    await turn;
    expect(children(fx)).toHaveLength(0);
    expect(fx.runtime.store.getState().controls.fanouts).toEqual([]);
  });
});

describe('fan-out confirmation inside a child', () => {
  it("a child's own fan-out asks too, and its active-time clock stops while the operator decides", async () => {
    dfx = await mainAndWorker({
      interactive: true,
      workerFields: 'max_child_seconds = 0.8',
      tables: '[delegation]\nconfirm_fanout_over = 2\nmax_children_per_agent = 10\n',
      worker: spawning(TASKS.slice(0, 3), 'worker done', (i) => `s${i + 1}`),
    });
    const asked: PendingFanout[] = [];
    const clock = useTestClock();
    dfx.runtime.store.subscribe((s) => {
      const pending = s.controls.fanouts?.[0];
      if (pending && !asked.some((p) => p.id === pending.id)) {
        asked.push(pending);
        // Longer than the worker's max_child_seconds: waiting on the operator is not its time.
        void clock.passTime(1200).then(() => dfx!.runtime.answerFanout!(pending.id, 3));
      }
    });
    await dfx.runtime.startTurn('go');
    const runs = dfx.runtime.store.getState().runs.values();
    const worker = runs.find((r) => r.kind === 'delegate')!;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ runId: worker.id, limit: 2 });
    expect(asked[0].children.map((c) => c.agent)).toEqual(['worker', 'worker', 'worker']);
    expect(worker).toMatchObject({ status: 'completed', result: 'worker done' });
    const subs = runs.filter((r) => r.kind === 'subagent');
    expect(subs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    // each gets what the worker had left of its 0.8 s, not less for the time spent asking
    for (const r of subs) expect(r.limits!.max_child_seconds).toBeGreaterThanOrEqual(0.5);
  }, 15000);
});

describe('planning', () => {
  const config = loadConfigFromTexts(
    [
      {
        file: '/x/config.toml',
        text: `default_agent = "main"
[providers.priced]
type = "openai-compatible"
base_url = "http://127.0.0.1:1/v1"
model = "big"
pricing = { input_per_mtok = 10, output_per_mtok = 30 }
[providers.free]
type = "openai-compatible"
base_url = "http://127.0.0.1:2/v1"
model = "small"
[agents.main]
provider = "priced"
system_prompt = "12345678"
delegates = ["a", "b"]
[agents.a]
provider = "priced"
system_prompt = "1234"
[agents.b]
provider = "free"
system_prompt = ""
`,
      },
    ],
    {},
  ).config;
  const tools = new ToolRegistry([spawnSubagentTool, createDelegateTool()]);
  const caller = { alias: 'main' } as never;
  const call = (id: string, name: string, args: object): ToolCallRequest => ({ id, name, args, rawArgs: JSON.stringify(args) });
  const plan = (...calls: ToolCallRequest[]) => plannedChildren(config, { caller, tools, calls });

  it('counts spawn calls and every delegate target; unpriced models are unknown', () => {
    const planned = plan(
      call('s1', 'spawn_subagent', { prompt: 'abcd' }),
      call('d1', 'delegate', { parallel: ['a', 'b'], prompt: 'wxyz' }),
      call('l1', 'delegate', { action: 'list_results' }),
      call('r1', 'read_file', { path: 'x' }),
    );
    expect(planned).toEqual([
      { callId: 's1', tool: 'spawn_subagent', agent: 'main', model: 'openai-compatible/big', task: 'abcd', inputTokens: 3, costUsd: 3e-5 },
      { callId: 'd1', tool: 'delegate', agent: 'a', model: 'openai-compatible/big', task: 'wxyz', inputTokens: 2, costUsd: 2e-5 },
      { callId: 'd1', tool: 'delegate', agent: 'b', model: 'openai-compatible/small', task: 'wxyz', inputTokens: 1, costUsd: undefined },
    ]);
  });

  it('the free offline model forecasts $0, not unknown (#20 wording)', () => {
    const offline = loadConfigFromTexts([], {}).config;
    const planned = plannedChildren(offline, { caller, tools, calls: [call('s1', 'spawn_subagent', { prompt: 'abcd' })] });
    expect(planned).toMatchObject([{ model: 'offline/arbor-offline', costUsd: 0 }]);
  });

  it('a reduced count declines whole calls: a parallel delegate runs all its targets or none', () => {
    const planned = plan(
      call('s1', 'spawn_subagent', { prompt: 'x' }),
      call('d1', 'delegate', { parallel: ['a', 'b'], prompt: 'y' }),
      call('s2', 'spawn_subagent', { prompt: 'z' }),
    );
    expect([...declinedCalls(planned, 4)]).toEqual([]);
    expect([...declinedCalls(planned, 3)]).toEqual(['s2']);
    expect([...declinedCalls(planned, 2)]).toEqual(['d1', 's2']);
    expect(startedFor(planned, 2)).toBe(1);
    expect([...declinedCalls(planned, 0)]).toEqual(['s1', 'd1', 's2']);
  });
});
