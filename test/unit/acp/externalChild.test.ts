// An external ACP agent (test/fixtures/acpAgent.mjs, the SDK's agent side, a real process on
// stdio) as a delegate child of an in-process runtime whose model is a loopback server:
// pause holds its next permission answer and its next prompt, steering becomes the next
// prompt of its session (a finished one is refused saying why), and a shared agent process
// ends with the session that started it.
import { acpAgentLines } from '../../helpers/acpPeer.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
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

/** `ext`: more keys for [agents.ext] (runtime_profile = "short" times it out after 1 s). */
const toml = (url: string, ext: string[] = []) =>
  baseToml(
    url,
    [
      'risk_profile = "lead"',
      'delegates = ["ext"]',
      '[risk_profiles.lead]',
      'delegation_policy = { mode = "allow" }',
      '[delegation]',
      'subagent_approvals = "ask"',
      '[runtime_profiles.short]',
      'delegation_timeout_secs = 1',
      ...acpAgentLines(),
      ...ext,
    ].join('\n'),
  );

/** Each root turn delegates `task` to ext once ("diff notes.txt" for a turn that asks for a
 * diff), then answers with what came back. */
async function delegating(task: string, ext: string[] = []): Promise<Fixture> {
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
    toml: (url) => toml(url, ext),
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
/** Resolves once `pred` holds: checked now and on every store change. */
const whenStore = (f: Fixture, pred: () => boolean): Promise<void> =>
  new Promise((resolve) => {
    if (pred()) return resolve();
    const off = f.runtime.store.subscribe(() => {
      if (!pred()) return;
      off();
      resolve();
    });
  });
/** Resolves once `pred` holds: checked now and whenever `dir` changes (the fixture agent's
 * files). */
const whenFiles = (dir: string, pred: () => boolean): Promise<void> =>
  new Promise((resolve) => {
    const w = watch(dir, () => {
      if (!pred()) return;
      w.close();
      resolve();
    });
    if (!pred()) return;
    w.close();
    resolve();
  });
/** A hanging external child under a 1 s limit (`ext`), paused as it appears (before its
 * clock starts) so a steer is queued before the limit ends it; the turn is over on return. */
async function steeredBeforeItsClock(ext: string[]): Promise<{ f: Fixture; child: Run }> {
  const f = (fx = await delegating('hang', ext));
  let child: Run | undefined;
  const off = f.runtime.store.subscribe(() => {
    if (child || !extRun(f)) return;
    child = extRun(f)!;
    f.runtime.pause(child.id);
  });
  const turn = f.runtime.startTurn('go');
  await whenStore(f, () => child !== undefined);
  off();
  expect(steerRun(f.runtime, child!.id, 'say more').level).toBe('info');
  // A pause holds the agent's prompts, not its start: resumed once its process is up, the 1 s
  // covers its prompt and hang, not a Node start on a busy machine (which took over 1 s under
  // load, and the limit ended the child before the agent ever had its prompt).
  await whenFiles(f.workdir, () => existsSync(join(f.workdir, 'acp-agent.pid')));
  f.runtime.resume(child!.id);
  await turn;
  return { f, child: child! };
}

const noticesOf = (items: readonly { kind: string; text?: string }[]) => items.filter((i) => i.kind === 'notice').map((i) => i.text ?? '');
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

describe('steering an external ACP child that ends before it is sent', () => {
  const childItems = (f: Fixture, runId: string) => f.runtime.store.getState().runTranscripts.get(runId) ?? [];
  const chatNotices = (f: Fixture) => noticesOf(f.runtime.store.getState().transcript);
  /** The steer is queued while the agent waits for GO; GO lets its turn end as `then` says. */
  async function steeredWhileWaiting(then: string): Promise<{ f: Fixture; child: Run; turn: Promise<unknown> }> {
    const f = (fx = await delegating(`await GO then ${then}`));
    const go = join(f.workdir, 'GO');
    const turn = f.runtime.startTurn('go');
    await whenFiles(f.workdir, () => existsSync(`${go}.waiting`));
    const child = extRun(f)!;
    expect(steerRun(f.runtime, child.id, 'say more').level).toBe('info');
    writeFileSync(go, '');
    return { f, child, turn };
  }

  /** Nothing of the steer reached the agent or reads as sent, and both the child's transcript
   * and the chat say it was not sent and why. */
  function reportedUnsent(f: Fixture, child: Run, why: string, task: string): void {
    expect(prompts(f)).toEqual([task]);
    const items = childItems(f, child.id);
    expect(items.filter((i) => i.kind === 'user')).toEqual([]);
    const said = `Steering for ext#1 was not sent (${why}): say more`;
    expect(noticesOf(items)).toContain(said);
    expect(items.find((i) => i.kind === 'notice' && i.text === said)).toMatchObject({ level: 'error' });
    expect(chatNotices(f)).toContain(said);
    // Steering is closed: a later steer is refused, not queued where nothing reads it.
    expect(steerRun(f.runtime, child.id, 'again')).toMatchObject({ level: 'error' });
  }

  it.each([
    ['refusal', 'the agent refused its turn'],
    ['max_tokens', "the agent's turn ran out of tokens"],
    ['max_turn_requests', "the agent's turn reached its request limit"],
    ['cancelled', 'the agent cancelled its turn'],
  ])('a turn the agent ends with stopReason %s', { timeout: 60000 }, async (stopReason, why) => {
    const { f, child, turn } = await steeredWhileWaiting(`end ${stopReason}`);
    await turn;
    reportedUnsent(f, child, why, `await GO then end ${stopReason}`);
  });

  it('a turn the agent answers with an error (the child fails)', { timeout: 60000 }, async () => {
    const { f, child, turn } = await steeredWhileWaiting('fail');
    await turn;
    expect(extRun(f)!.status).toBe('failed');
    const error = extRun(f)!.error ?? '';
    expect(error).not.toBe('');
    reportedUnsent(f, child, `it failed: ${error}`, 'await GO then fail');
  });

  it('the child killed while a steer is queued', { timeout: 60000 }, async () => {
    const f = (fx = await delegating('hang'));
    const turn = f.runtime.startTurn('go');
    // The raw file: the watch may fire between its creation and the line's write.
    const promptsFile = join(f.workdir, 'acp-agent.prompts');
    await whenFiles(f.workdir, () => existsSync(promptsFile) && readFileSync(promptsFile, 'utf8').includes('"prompt":"hang"}\n'));
    const child = extRun(f)!;
    expect(steerRun(f.runtime, child.id, 'say more').level).toBe('info');
    f.runtime.kill(child.id);
    await turn;
    expect(extRun(f)!.status).toBe('killed');
    reportedUnsent(f, child, 'it was killed', 'hang');
  });

  it('the child killed while its next prompt is held by a pause: the steer does not read as sent', { timeout: 60000 }, async () => {
    const f = (fx = await delegating('await GO then say hello'));
    const go = join(f.workdir, 'GO');
    const turn = f.runtime.startTurn('go');
    await whenFiles(f.workdir, () => existsSync(`${go}.waiting`));
    const child = extRun(f)!;
    steerRun(f.runtime, child.id, 'say more');
    f.runtime.pause(child.id);
    writeFileSync(go, '');
    const held = 'Paused: the next prompt to ext#1 waits until it is resumed (its turn has ended).';
    await whenStore(f, () => noticesOf(childItems(f, child.id)).includes(held));
    f.runtime.kill(child.id);
    await turn;
    reportedUnsent(f, child, 'it was killed', 'await GO then say hello');
  });

  it('the child timed out while a steer is queued', { timeout: 60000 }, async () => {
    const { f, child } = await steeredBeforeItsClock(['runtime_profile = "short"']);
    expect(extRun(f)!.status).toBe('timed_out');
    reportedUnsent(f, child, 'it timed out', 'hang');
  });

  it('the child stopped by a per-child limit while a steer is queued: the limit is the reason', { timeout: 60000 }, async () => {
    const { f, child } = await steeredBeforeItsClock(['max_child_seconds = 1']);
    expect(extRun(f)!.status).toBe('failed');
    const error = extRun(f)!.error ?? '';
    expect(error).toContain('child budget exhausted: max_child_seconds = 1');
    // The supervisor stops it as 'cancelled'; the reason given is the limit, not a cancel.
    reportedUnsent(f, child, `it failed: ${error}`, 'hang');
  });

  it('a steer that arrives just after the last turn ended, before the run is over, is refused', { timeout: 60000 }, async () => {
    const f = (fx = await delegating('say hello'));
    // The usage is booked once the session's turns are over and steering has closed, while
    // the run still reads running: the steer is sent from that very store change.
    const outcomes: Array<{ status: string; result: ReturnType<typeof steerRun> }> = [];
    const off = f.runtime.store.subscribe((s) => {
      const child = extRun(f);
      if (!child || outcomes.length > 0 || (s.runs.get(child.id)?.tokensIn ?? 0) === 0) return;
      outcomes.push({ status: s.runs.get(child.id)!.status, result: steerRun(f.runtime, child.id, 'too late') });
    });
    await f.runtime.startTurn('go');
    off();
    expect(outcomes).toEqual([
      {
        status: 'running',
        result: {
          text: "Cannot steer ext#1: an external agent's session ends with its last turn, so there is nothing to send to; delegate to it again for more.",
          level: 'error',
        },
      },
    ]);
    expect(prompts(f)).toEqual(['say hello']);
    expect(extRun(f)!.status).toBe('completed');
    // Refused, so nothing is reported as unsent either.
    expect(chatNotices(f).filter((n) => n.includes('not sent'))).toEqual([]);
  });
});
