// [delegation] subagent_approvals = "ask": a child's call that would ask is queued for the
// operator instead of denied. Each path against the real runtime and the loopback model:
// queue order, allow once / for this child / for the tree this turn, kill and pause while
// an ask waits, the run timeout standing still meanwhile, and headless -p.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ASK_WITHDRAWN, HEADLESS_DENIED, OPERATOR_DENIED } from '../../../src/runtime/approvals.js';
import { CHILD_APPROVAL_DENIED_BY_PROFILE } from '../../../src/tools/approvalPolicy.js';
import type { PendingApproval } from '../../../src/model/controls.js';
import type { Run } from '../../../src/model/run.js';
import { PauseGate } from '../../../src/runtime/pauseGate.js';
import { hasToolResults, lastUserText, type LoopbackIncoming, type LoopbackReply } from '../../support/loopbackModel.js';
import {
  childRuns,
  baseToml,
  calls,
  makeFixture,
  serverQuiet,
  text,
  until,
  useTestClock,
  type Fixture,
} from '../../helpers/runtimeFixture.js';
import { firstUser, toolResults } from '../../support/wireBody.js';

let fx: Fixture | undefined;

const ASK = '[delegation]\nsubagent_approvals = "ask"\n';
const PARALLEL = '[runtime_profiles.default]\nparallel_tools = true\n';

/** A child's prompt is `child:<file>,<file>...`: it writes each file (content = its name),
 * one call per step, then answers with every tool result it read. A `later` child asks
 * for its first step only once another child's ask is queued, so the order is known. */
async function child(body: unknown, later = false): Promise<LoopbackReply> {
  const files = firstUser(body).slice('child:'.length).split(',');
  const done = toolResults(body);
  if (done.length >= files.length) return text(`child read: ${done.map((m) => m.content).join(' | ')}`);
  const file = files[done.length];
  if (later) await until(() => asks().length >= 1, 15_000, 'the first child ask');
  return { kind: 'tools', calls: [{ id: `w-${file}`, name: 'write_file', args: { path: file, content: file } }] };
}

/** The root spawns one child per entry of `children` (for the turn named by the user's
 * text), then says `root done`. `slow` children ask for their first step after another child asked. */
function script(turns: Record<string, string[][]>, slow: string[] = []) {
  return ({ body }: LoopbackIncoming): LoopbackReply | Promise<LoopbackReply> => {
    const first = firstUser(body);
    if (first.startsWith('child:')) return child(body, slow.some((f) => first.includes(f)) && !toolResults(body).length);
    if (hasToolResults(body)) return text('root done');
    const children = turns[lastUserText(body)] ?? [];
    return calls(...children.map((files, i) => ({ id: `s${i}`, name: 'spawn_subagent', args: { prompt: `child:${files.join(',')}` } })));
  };
}

const asks = (): PendingApproval[] => fx!.runtime.store.getState().controls.approvals;
const run = (id: string): Run => fx!.runtime.store.getState().runs.get(id)!;
const children = (): Run[] => childRuns(fx!);
const wrote = (file: string) => existsSync(join(fx!.workdir, file));
/** What the child that wrote (or tried) `file` read back for that call. */
function childResult(file: string): string | undefined {
  for (const r of fx!.server.requests) {
    if (!firstUser(r.body).startsWith('child:')) continue;
    const m = toolResults(r.body).find((x) => x.tool_call_id === `w-${file}`);
    if (m) return m.content;
  }
  return undefined;
}

async function interactive(toml: string, turns: Record<string, string[][]>, slow: string[] = []) {
  fx = await makeFixture({ toml: (u) => baseToml(u, toml), respond: script(turns, slow), runtime: { interactive: true } });
  return fx;
}

/** Starts the turn named `name` of an interactive fixture whose children write `turns`, and
 * waits for the first ask. */
async function firstAsk(toml: string, turns: Record<string, string[][]>, name = 'go') {
  await interactive(toml, turns);
  const turn = fx!.runtime.startTurn(name);
  await until(() => asks().length === 1);
  return { turn, ask: asks()[0] };
}

describe('children that ask the operator', () => {
  it('asks from several children queue oldest first; each is answered on its own', async () => {
    await interactive(ASK + PARALLEL, { go: [['a.txt'], ['b.txt']] }, ['b.txt']);
    const turn = fx!.runtime.startTurn('go');
    await until(() => asks().length === 2);
    const [first, second] = asks();
    expect(first).toMatchObject({ tool: 'write_file', isChild: true, args: { path: 'a.txt', content: 'a.txt' } });
    expect(second).toMatchObject({ tool: 'write_file', isChild: true, args: { path: 'b.txt' } });
    expect(first.createdAt).toBeLessThanOrEqual(second.createdAt);
    expect(run(first.runId).status).toBe('awaiting_approval');
    expect(run(second.runId).status).toBe('awaiting_approval');
    // The root waits on its children; it is not asking anything itself.
    expect(
      fx!.runtime.store
        .getState()
        .runs.values()
        .find((r) => r.kind === 'root')!.status,
    ).toBe('running');
    fx!.runtime.answerApproval(second.id, 'deny');
    await until(() => asks().length === 1);
    expect(asks()[0].id).toBe(first.id);
    fx!.runtime.answerApproval(first.id, 'allow_once');
    await turn;
    expect(readFileSync(join(fx!.workdir, 'a.txt'), 'utf8')).toBe('a.txt');
    expect(wrote('b.txt')).toBe(false);
    expect(childResult('b.txt')).toBe(OPERATOR_DENIED('write_file'));
  });

  it("a child's arguments reach the queue neutralised (the call still runs as sent)", async () => {
    const { turn } = await firstAsk(ASK, { go: [['evil\u001b[2J.txt']] });
    expect(asks()[0].args).toEqual({ path: 'evil␛[2J.txt', content: 'evil␛[2J.txt' });
    fx!.runtime.answerApproval(asks()[0].id, 'deny');
    await turn;
  });

  it('allow for this child: its later calls to that tool run without asking; another child still asks', async () => {
    const { turn, ask: first } = await firstAsk(ASK, { go: [['a.txt', 'b.txt'], ['c.txt']] });
    expect(first.args).toMatchObject({ path: 'a.txt' });
    fx!.runtime.answerApproval(first.id, 'allow_child');
    // The next ask is the second child's: the first one's b.txt went through unasked.
    await until(() => asks().length === 1 && asks()[0].id !== first.id);
    expect(asks()[0].args).toMatchObject({ path: 'c.txt' });
    expect(asks()[0].runId).not.toBe(first.runId);
    expect(wrote('a.txt') && wrote('b.txt')).toBe(true);
    fx!.runtime.answerApproval(asks()[0].id, 'deny');
    await turn;
    expect(wrote('c.txt')).toBe(false);
  });

  it('allow for the whole tree holds for every child of this turn, and ends with the turn', async () => {
    const { turn: turn1 } = await firstAsk(ASK, { one: [['a.txt'], ['b.txt']], two: [['c.txt']] }, 'one');
    fx!.runtime.answerApproval(asks()[0].id, 'allow_tree');
    await turn1;
    expect(wrote('a.txt') && wrote('b.txt')).toBe(true);
    // The next turn is a new tree: its child asks again.
    const turn2 = fx!.runtime.startTurn('two');
    await until(() => asks().length === 1);
    expect(asks()[0].args).toMatchObject({ path: 'c.txt' });
    fx!.runtime.answerApproval(asks()[0].id, 'allow_once');
    await turn2;
    expect(wrote('c.txt')).toBe(true);
  });

  it('an allow for the tree also releases the asks of that tree already waiting for the same tool', async () => {
    await interactive(ASK + PARALLEL, { go: [['a.txt'], ['b.txt']] }, ['b.txt']);
    const turn = fx!.runtime.startTurn('go');
    await until(() => asks().length === 2);
    fx!.runtime.answerApproval(asks()[0].id, 'allow_tree');
    await turn;
    expect(wrote('a.txt') && wrote('b.txt')).toBe(true);
    expect(asks()).toHaveLength(0);
  });

  it('a child killed while its ask waits: the ask leaves the queue and nothing is answered for it', async () => {
    const { turn, ask } = await firstAsk(ASK, { go: [['a.txt']] });
    expect(fx!.runtime.kill(ask.runId)).toEqual({ killed: true, descendants: 0 });
    // Gone at once, in the same call.
    expect(asks()).toHaveLength(0);
    await turn;
    expect(run(ask.runId).status).toBe('killed');
    expect(wrote('a.txt')).toBe(false);
    const item = fx!.runtime.store
      .getState()
      .runTranscripts.get(ask.runId)!
      .find((i) => i.kind === 'tool');
    // Not recorded as the operator's denial: nobody answered.
    expect(item).toMatchObject({ status: 'error', result: ASK_WITHDRAWN });
    const rootResult = toolResults(fx!.server.requests.at(-1)!.body)[0].content;
    expect(rootResult).toBe('subagent run failed: killed by the operator');
    // A late answer to the withdrawn ask changes nothing.
    fx!.runtime.answerApproval(ask.id, 'allow_once');
    expect(wrote('a.txt')).toBe(false);
  });

  it('a child paused while its ask waits: the ask stays answerable; an allowed call runs only after resume', async () => {
    const { turn, ask } = await firstAsk(ASK, { go: [['a.txt']] });
    const clock = useTestClock();
    const gateWaits = vi.spyOn(PauseGate.prototype, 'wait');
    onTestFinished(() => gateWaits.mockRestore());
    fx!.runtime.pause(ask.runId);
    expect(run(ask.runId).status).toBe('paused');
    // Nothing answered on its own: not as time passes, nor once all the server was asked has
    // ended. (The run asks inside its tool step, so it is not yet waiting at its gate.)
    await clock.passTime(60_000);
    await serverQuiet(fx!.server);
    expect(asks().map((a) => a.id)).toEqual([ask.id]);
    expect(gateWaits).not.toHaveBeenCalled();
    fx!.runtime.answerApproval(ask.id, 'allow_once');
    expect(asks()).toHaveLength(0);
    // The allowed call goes on to the pause gate (only a paused run waits there) and stays:
    // the write would have come before that wait, and the gate opens only on resume.
    await until(() => gateWaits.mock.calls.length > 0, 5000, 'the allowed call to wait at the pause gate');
    await clock.passTime(60_000);
    await serverQuiet(fx!.server);
    expect(run(ask.runId).status).toBe('paused');
    expect(wrote('a.txt')).toBe(false);
    fx!.runtime.resume(ask.runId);
    await turn;
    expect(wrote('a.txt')).toBe(true);
    expect(run(ask.runId).status).toBe('completed');
  });

  it('resuming a paused child whose ask still waits puts it back to awaiting the answer', async () => {
    const { turn, ask } = await firstAsk(ASK, { go: [['a.txt']] });
    fx!.runtime.pause(ask.runId);
    fx!.runtime.resume(ask.runId);
    expect(run(ask.runId).status).toBe('awaiting_approval');
    fx!.runtime.answerApproval(ask.id, 'allow_once');
    await turn;
    expect(wrote('a.txt')).toBe(true);
  });

  it("the run timeout's clock stands still while the child waits for an answer", async () => {
    await interactive(`${ASK}run_timeout_secs = 0.3\n`, { go: [['a.txt']] });
    const clock = useTestClock();
    const turn = fx!.runtime.startTurn('go');
    await until(() => asks().length === 1);
    const ask = asks()[0];
    await clock.passTime(700);
    expect(run(ask.runId).status).toBe('awaiting_approval');
    fx!.runtime.answerApproval(ask.id, 'allow_once');
    await turn;
    expect(run(ask.runId).status).toBe('completed');
    expect(wrote('a.txt')).toBe(true);
    // The shown active time leaves the wait out too.
    expect(run(ask.runId).pausedMs).toBeGreaterThanOrEqual(600);
  });

  it('control: the same timeout does stop a child that is working, not asking', async () => {
    fx = await makeFixture({
      toml: (u) => baseToml(u, `${ASK}run_timeout_secs = 0.3\n`),
      respond: ({ body }) => {
        if (firstUser(body) === 'hang') return { kind: 'hang' };
        if (hasToolResults(body)) return text('root done');
        return calls({ id: 's', name: 'spawn_subagent', args: { prompt: 'hang' } });
      },
      runtime: { interactive: true },
    });
    await fx.runtime.startTurn('go');
    expect(children()[0].status).toBe('timed_out');
  });

  it('always_ask in a binding profile: "allow for this child" does not cover the next call', async () => {
    const { turn, ask: first } = await firstAsk(`${ASK}[risk_profiles.default]\nalways_ask = ["write_file"]\n`, {
      go: [['a.txt', 'b.txt']],
    });
    fx!.runtime.answerApproval(first.id, 'allow_child');
    await until(() => asks().length === 1 && asks()[0].id !== first.id);
    expect(asks()[0].args).toMatchObject({ path: 'b.txt' });
    fx!.runtime.answerApproval(asks()[0].id, 'deny');
    await turn;
    expect(wrote('a.txt')).toBe(true);
    expect(wrote('b.txt')).toBe(false);
  });

  it('a risk profile narrows "ask" to "deny": no ask, and the child reads which profile denied it', async () => {
    await interactive(`${ASK}[risk_profiles.default]\nsubagent_approvals = "deny"\n`, { go: [['a.txt']] });
    await fx!.runtime.startTurn('go');
    expect(asks()).toHaveLength(0);
    expect(wrote('a.txt')).toBe(false);
    expect(childResult('a.txt')).toBe(CHILD_APPROVAL_DENIED_BY_PROFILE('write_file', 'default'));
  });

  it('"allow" lets a child run what would ask, without an operator', async () => {
    await interactive('[delegation]\nsubagent_approvals = "allow"\n', { go: [['a.txt']] });
    await fx!.runtime.startTurn('go');
    expect(wrote('a.txt')).toBe(true);
  });

  it("headless -p: a child's ask is denied as the root's would be; with --yes it runs", async () => {
    fx = await makeFixture({ toml: (u) => baseToml(u, ASK), respond: script({ go: [['a.txt']] }) });
    await fx.runtime.startTurn('go');
    expect(wrote('a.txt')).toBe(false);
    expect(childResult('a.txt')).toBe(HEADLESS_DENIED('write_file'));
    expect(asks()).toHaveLength(0);
    await fx.cleanup();
    fx = await makeFixture({ toml: (u) => baseToml(u, ASK), respond: script({ go: [['a.txt']] }), runtime: { autoYes: true } });
    await fx.runtime.startTurn('go');
    expect(wrote('a.txt')).toBe(true);
  });
});
