// An external ACP agent (test/fixtures/acpAgent.mjs, the SDK's agent side, a real process on
// stdio) as a delegate child of an in-process runtime whose model is a loopback server:
// pause holds its next permission answer and its next prompt, steering becomes the next
// prompt of its session (a finished one is refused saying why), and a shared agent process
// ends with the session that started it.
import { acpAgentLines } from '../../helpers/acpPeer.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseToml, calls, makeFixture, text, until, type Fixture } from '../../helpers/runtimeFixture.js';
import { lastUserText, trailingToolResults } from '../../support/loopbackModel.js';
import { alive } from '../../support/procs.js';
import { steerRun } from '../../../src/ui/agents/actions.js';
import { delegateTool } from '../../../src/tools/delegate/tool.js';
import { delegationServices } from '../../../src/runtime/delegation/service.js';
import { TaskStore } from '../../../src/persistence/taskRecords.js';
import type { Run } from '../../../src/runtime/types.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const toml = (url: string) =>
  baseToml(
    url,
    [
      'risk_profile = "lead"',
      'delegates = ["ext"]',
      '[risk_profiles.lead]',
      'delegation_policy = { mode = "allow" }',
      '[delegation]',
      'subagent_approvals = "ask"',
      ...acpAgentLines(),
    ].join('\n'),
  );

/** Each root turn delegates `task` to ext once ("diff notes.txt" for a turn that asks for a
 * diff), then answers with what came back. */
async function delegating(task: string): Promise<Fixture> {
  const home = mkdtempSync(join(tmpdir(), 'arbor-acp-home-'));
  const f = await makeFixture({
    respond: ({ body }) => {
      const results = trailingToolResults(body);
      if (results.length) return text(`root saw: ${results.map((r) => r.content).join(' || ')}`);
      const asked = lastUserText(body);
      const prompt = asked === 'diff please' ? 'diff notes.txt' : task;
      return calls({
        id: 'd1',
        name: 'delegate',
        args: { agent: 'ext', prompt, ...(asked === 'in the background' ? { background: true } : {}) },
      });
    },
    toml,
    // The delegate tool's service, as the CLI wires it (its background tasks live in the home).
    runtime: { interactive: true, arborHome: home, extraTools: [delegateTool], extraServices: delegationServices(new TaskStore(home)) },
  });
  return {
    ...f,
    async cleanup() {
      await f.cleanup();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

const extRun = (f: Fixture): Run | undefined =>
  [...f.runtime.store.getState().runs.values()].find((r) => r.alias === 'ext' && r.kind === 'delegate');
const prompts = (f: Fixture): string[] => {
  const path = join(f.workdir, 'acp-agent.prompts');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { prompt: string }).prompt);
};
const pidOf = (f: Fixture) => Number(readFileSync(join(f.workdir, 'acp-agent.pid'), 'utf8'));
const lastAnswer = (f: Fixture) => {
  const items = f.runtime.store.getState().transcript.filter((i) => i.kind === 'assistant');
  return items.at(-1)?.kind === 'assistant' ? items.at(-1)!.text : '';
};

describe('an external ACP child under supervision', () => {
  it(
    'pause holds its permission answer and its next prompt; steering is sent as the next prompt of its session',
    { timeout: 60000 },
    async () => {
      const f = (fx = await delegating('await GO then ask'));
      const go = join(f.workdir, 'GO');
      // The fixture resolves GO against its cwd: the task names it relatively.
      const turn = f.runtime.startTurn('go');
      await until(() => existsSync(`${go}.waiting`), 20000, 'the agent waiting for GO');
      const child = extRun(f)!;
      expect(child.status).toBe('running');

      // Paused mid-step: the agent cannot be stopped, so the run reads pausing…
      f.runtime.pause(child.id);
      expect(f.runtime.store.getState().runs.get(child.id)!.status).toBe('pausing');
      writeFileSync(go, '');
      // …until it asks: its ask is held (not queued for the operator) and the run is paused.
      await until(() => f.runtime.store.getState().runs.get(child.id)!.status === 'paused', 20000, 'the ask held');
      const askCall = () =>
        (f.runtime.store.getState().runTranscripts.get(child.id) ?? []).find((i) => i.kind === 'tool' && i.callId === 'edit-1');
      expect(askCall()).toBeDefined();
      expect(f.runtime.store.getState().controls.approvals).toEqual([]);

      // Steering while it runs is queued for its next prompt.
      const steered = steerRun(f.runtime, child.id, 'say more');
      expect(steered).toMatchObject({
        text: 'Steering for ext#1 queued: an external agent gets it as its next prompt once its current turn ends.',
      });
      f.runtime.resume(child.id);
      await until(() => f.runtime.store.getState().controls.approvals.length === 1, 20000, 'the ask reaching the operator');
      const ask = f.runtime.store.getState().controls.approvals[0];
      expect(ask).toMatchObject({ runId: child.id, tool: 'acp:edit', isChild: true });

      // Paused again before the answer: the turn ends, and the steering prompt is held.
      f.runtime.pause(child.id);
      f.runtime.answerApproval(ask.id, 'allow_once');
      const childItems = () => f.runtime.store.getState().runTranscripts.get(child.id) ?? [];
      const held = 'Paused: the next prompt to ext#1 waits until it is resumed (its turn has ended).';
      await until(() => childItems().some((i) => i.kind === 'notice' && i.text === held), 20000, 'the next prompt held');
      expect(f.runtime.store.getState().runs.get(child.id)!.status).toBe('paused');
      expect(prompts(f)).toEqual(['await GO then ask']);
      const said = (f.runtime.store.getState().runTranscripts.get(child.id) ?? [])
        .filter((i) => i.kind === 'assistant')
        .map((i) => (i.kind === 'assistant' ? i.text : ''));
      expect(said).toEqual(['permission: yes']);

      f.runtime.resume(child.id);
      await turn;
      expect(prompts(f)).toEqual(['await GO then ask', 'say more']);
      // The steering message is in the child's transcript; the result is the last turn's
      // answer, and the usage is both turns'.
      const items = f.runtime.store.getState().runTranscripts.get(child.id) ?? [];
      expect(items.filter((i) => i.kind === 'user').map((i) => (i.kind === 'user' ? i.text : ''))).toEqual(['say more']);
      expect(lastAnswer(f)).toBe("root saw: [Agent 'ext' (acp/arbor-test-agent)]\nhello from the fixture");
      const done = extRun(f)!;
      expect(done).toMatchObject({ status: 'completed', tokensIn: 14, tokensOut: 10 });

      // Finished: its session is gone, and the operator is told so.
      expect(steerRun(f.runtime, child.id, 'one more')).toEqual({
        text: "Cannot steer ext#1: an external agent's session ends with its last turn, so there is nothing to send to; delegate to it again for more.",
        level: 'error',
      });
      expect(prompts(f)).toHaveLength(2);
    },
  );

  it(
    "streams the agent's thoughts, text, tool calls with their status and diffs into the child's transcript",
    { timeout: 60000 },
    async () => {
      const f = (fx = await delegating('say hello'));
      await f.runtime.startTurn('first');
      const child = extRun(f)!;
      const items = f.runtime.store.getState().runTranscripts.get(child.id) ?? [];
      const thought = items.find((i) => i.kind === 'assistant' && i.reasoning);
      expect(thought).toMatchObject({ reasoning: 'thinking it over', streaming: false });
      expect(items.find((i) => i.kind === 'tool')).toMatchObject({ name: 'look around', status: 'ok', result: 'looked', callId: 'look-1' });
      expect(items.filter((i) => i.kind === 'assistant').at(-1)).toMatchObject({ text: 'hello from the fixture' });

      // A second child of the session reports an edit: its diff becomes the structured display.
      await f.runtime.startTurn('diff please');
      const second = [...f.runtime.store.getState().runs.values()].filter((r) => r.alias === 'ext').at(-1)!;
      expect(second.id).not.toBe(child.id);
      const edit = (f.runtime.store.getState().runTranscripts.get(second.id) ?? []).find((i) => i.kind === 'tool');
      expect(edit).toMatchObject({
        name: 'edit notes.txt',
        status: 'ok',
        display: { kind: 'diff', path: 'notes.txt', added: 2, removed: 1 },
      });
    },
  );

  it('a shared agent process outlives the turn for the next child of the session, and /clear ends it', { timeout: 60000 }, async () => {
    const f = (fx = await delegating('say hello'));
    await f.runtime.startTurn('first');
    const pid = pidOf(f);
    expect(alive(pid)).toBe(true);
    await f.runtime.startTurn('second');
    // One process served both turns' children.
    expect(readFileSync(join(f.workdir, 'acp-agent.starts'), 'utf8').trim().split('\n')).toEqual([String(pid)]);
    expect(alive(pid)).toBe(true);
    f.runtime.clear();
    await until(() => !alive(pid), 10000, 'the agent process ending on /clear');
  });

  it('a background delegate to an external agent runs it through ACP too', { timeout: 60000 }, async () => {
    const f = (fx = await delegating('say hello'));
    await f.runtime.startTurn('in the background');
    const background = () => [...f.runtime.store.getState().runs.values()].find((r) => r.alias === 'ext' && r.kind === 'background');
    await until(() => background()?.status === 'completed', 20000, 'the background child finishing');
    const child = background()!;
    expect(child.model).toBe('acp/node');
    expect(prompts(f)).toEqual(['say hello']);
    expect(child.result).toBe('hello from the fixture');
  });

  it('/clear while a background child still uses the shared process ends it once that child is done', { timeout: 60000 }, async () => {
    const f = (fx = await delegating('await GO then hello'));
    const go = join(f.workdir, 'GO');
    await f.runtime.startTurn('in the background');
    await until(() => existsSync(`${go}.waiting`), 20000, 'the agent waiting for GO');
    const pid = pidOf(f);
    f.runtime.clear();
    // The background child still has its session on it: the process stays.
    const background = () => [...f.runtime.store.getState().runs.values()].find((r) => r.alias === 'ext' && r.kind === 'background');
    expect(background()?.status).toBe('running');
    expect(alive(pid)).toBe(true);
    writeFileSync(go, '');
    await until(() => background()?.status === 'completed', 20000, 'the background child finishing');
    await until(() => !alive(pid), 10000, 'the retired process ending');
    expect(background()!.result).toBe('hello from the fixture');
  });

  it('dispose ends a shared agent process', { timeout: 60000 }, async () => {
    const f = (fx = await delegating('say hello'));
    await f.runtime.startTurn('first');
    const pid = pidOf(f);
    expect(alive(pid)).toBe(true);
    await f.runtime.dispose();
    expect(alive(pid)).toBe(false);
  });
});
