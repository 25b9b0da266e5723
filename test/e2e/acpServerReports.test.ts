// `arbor acp` driven by the official SDK's client side over real stdio, for what the first
// suite does not cover: reasoning as thought chunks, session/resume and session/close, and
// the tree's limits (a quota pause, the runaway guard, a child budget) as the editor sees
// them, with live notices and without, and a shared external agent ending with its session.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText, type LoopbackIncoming, type LoopbackReply } from '../support/loopbackModel.js';
import { fakeProviderConfig, type ArborHome } from '../support/tempHome.js';
import { alive } from '../support/procs.js';
import { firstUser, toolResults } from '../support/wireBody.js';
import { startAcp, acpAgentLines, acpHome } from '../helpers/acpPeer.js';
import { messagesWithRole } from '../support/wireRequest.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const kindOf = (n: acp.SessionNotification) => n.update.sessionUpdate;
const textOf = (n: acp.SessionNotification) => (n.update as any).content?.text as string;
/** The agent's answer text among `updates`, its message chunks joined. */
const answerIn = (updates: acp.SessionNotification[]) =>
  updates
    .filter((n) => kindOf(n) === 'agent_message_chunk')
    .map(textOf)
    .join('');
const sub = (n: acp.SessionNotification) => (n.update.sessionUpdate === 'subagent_update' ? (n.update as any) : undefined);

async function home(respond: (req: LoopbackIncoming) => LoopbackReply, extraToml = '', agentExtra = ''): Promise<ArborHome> {
  return (await acpHome(respond, (url) => `${fakeProviderConfig(url, 'fake-model', agentExtra)}${extraToml}`, cleanups)).h;
}

describe('arbor acp: reasoning and the session lifecycle', () => {
  it('streams the model reasoning as agent_thought_chunk before the answer', { timeout: 60000 }, async () => {
    const h = await home(() => ({ kind: 'text', chunks: ['Alpha ', 'beta.'], reasoning: { chunks: ['Hmm, ', 'let me see.'] } }));
    const peer = startAcp(h, () => 'deny', cleanups);
    const sessionId = await peer.open();
    const done = await peer.prompt(sessionId, 'think');
    expect(done.stopReason).toBe('end_turn');
    const mine = peer.updates.filter((n) => n.sessionId === sessionId);
    const thoughts = mine.filter((n) => kindOf(n) === 'agent_thought_chunk');
    expect(thoughts.map(textOf).join('')).toBe('Hmm, let me see.');
    expect(answerIn(mine)).toBe('Alpha beta.');
    // The reasoning came first and stayed out of the answer.
    const firstThought = mine.indexOf(thoughts[0]);
    const firstText = mine.findIndex((n) => kindOf(n) === 'agent_message_chunk');
    expect(firstThought).toBeLessThan(firstText);
  });

  it(
    'session/close releases a session (later prompts are refused); session/resume reopens it without replaying and keeps its context',
    { timeout: 60000 },
    async () => {
      const h = await home(({ body }) => ({
        kind: 'text',
        chunks: [`heard ${JSON.stringify(messagesWithRole(body, 'user').map((m) => m.content))}`],
      }));
      const peer = startAcp(h, () => 'deny', cleanups);
      const init = await peer.conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ close: {}, resume: {} });
      const { sessionId } = await peer.conn.agent.request('session/new', { cwd: h.dir, mcpServers: [] });
      const say = (text: string) => peer.prompt(sessionId, text);
      await say('first');
      expect(await peer.conn.agent.request('session/close', { sessionId })).toEqual({});
      await expect(say('into the void')).rejects.toMatchObject({ code: -32002 });
      // Closing it again leaves the same end state: arbor answers "not found", which the SDK
      // turns into success as ACP recommends.
      expect(await peer.conn.agent.request('session/close', { sessionId })).toEqual({});

      const before = peer.updates.length;
      const resumed = await peer.conn.agent.request('session/resume', { sessionId, cwd: h.dir, mcpServers: [] });
      expect(resumed.configOptions?.[0]?.id).toBe('model');
      // Resume does not replay: nothing of the first turn is sent again.
      const since = () => peer.updates.slice(before).filter((n) => n.sessionId === sessionId);
      expect(since().filter((n) => kindOf(n) === 'user_message_chunk' || kindOf(n) === 'agent_message_chunk')).toEqual([]);
      await say('second');
      const answer = answerIn(since());
      expect(answer).toBe('heard ["first","second"]');
      // A resume of a session that exists nowhere is refused by name.
      await expect(
        peer.conn.agent.request('session/resume', { sessionId: 'no-such-session', cwd: h.dir, mcpServers: [] }),
      ).rejects.toMatchObject({ code: -32002 });
      expect(await peer.end()).toBe(0);
    },
  );
});

describe('arbor acp: a shared external agent process', () => {
  it(
    'lives while its session does: after the turn it is still there, session/close ends it while arbor acp runs on',
    { timeout: 60000 },
    async () => {
      const h = await home(
        ({ body }) =>
          toolResults(body).length
            ? { kind: 'text', chunks: [`root saw: ${toolResults(body)[0].content}`] }
            : { kind: 'tools', calls: [{ id: 'd1', name: 'delegate', args: { agent: 'ext', prompt: 'say hello' } }] },
        ['', '[risk_profiles.lead]', 'delegation_policy = { mode = "allow" }', ...acpAgentLines(), ''].join('\n'),
        'risk_profile = "lead"\ndelegates = ["ext"]',
      );
      const peer = startAcp(h, () => 'deny', cleanups);
      const sessionId = await peer.open();
      await peer.prompt(sessionId, 'go');
      const answer = answerIn(peer.updates);
      expect(answer).toBe("root saw: [Agent 'ext' (acp/arbor-test-agent)]\nhello from the fixture");
      const pid = Number(readFileSync(join(h.dir, 'acp-agent.pid'), 'utf8'));
      expect(alive(pid)).toBe(true);
      await peer.conn.agent.request('session/close', { sessionId });
      expect(alive(pid)).toBe(false);
      // arbor acp itself goes on serving.
      expect(peer.proc.exitCode).toBe(null);
      const again = await peer.conn.agent.request('session/new', { cwd: h.dir, mcpServers: [] });
      expect(again.sessionId).not.toBe(sessionId);
      expect(await peer.end()).toBe(0);
    },
  );
});

describe('arbor acp: limits reported to the client', () => {
  it(
    'a quota pause: a live notice says why, the held child is requires_action with pausedBy quota, then it resumes and finishes',
    { timeout: 60000 },
    async () => {
      let childCalls = 0;
      const h = await home(({ body }) => {
        if (lastUserText(body) === 'count the leaves') {
          childCalls++;
          if (childCalls === 1)
            return { kind: 'status', status: 429, headers: { 'retry-after': '2' }, body: '{"error":{"message":"slow down"}}' };
          return { kind: 'text', chunks: ['forty-two leaves'] };
        }
        if (toolResults(body).length) return { kind: 'text', chunks: [`The child said: ${toolResults(body)[0].content}`] };
        return { kind: 'tools', calls: [{ id: 'c1', name: 'spawn_subagent', args: { prompt: 'count the leaves' } }] };
      });
      const peer = startAcp(h, () => 'deny', cleanups, { ARBOR_RETRY_MAX_WAIT_MS: '200' });
      const sessionId = await peer.open({ subagents: {}, session: { notices: {} } });
      const done = await peer.prompt(sessionId, 'go');
      expect(done.stopReason).toBe('end_turn');

      const notices = peer.updates.filter((n) => kindOf(n) === 'notice').map((n) => n.update as any);
      expect(notices[0]).toMatchObject({
        severity: 'warning',
        title: expect.stringMatching(/^Rate limit on provider "fake" .*paused until/),
      });
      expect(notices.some((n) => n.severity === 'info' && /the limit has lifted; resuming 1 run/.test(n.title))).toBe(true);
      // Notices are not mixed into the answer for a client that shows them.
      const answer = answerIn(peer.updates.filter((n) => n.sessionId === sessionId));
      expect(answer).toBe('The child said: forty-two leaves');

      const held = peer.updates.map(sub).find((u) => u?.state?.state === 'requires_action');
      expect(held.state._meta.arbor).toMatchObject({
        workState: 'paused',
        pausedBy: 'quota',
        pausedWhy: expect.stringMatching(
          /^paused by a rate or quota limit on provider "fake" until \d\d:\d\d:\d\d; it resumes by itself then$/,
        ),
      });
      const last = peer.updates
        .map(sub)
        .filter((u) => u?.sessionId === held.sessionId && u.state)
        .at(-1);
      expect(last.state).toMatchObject({ state: 'idle', stopReason: 'end_turn' });
    },
  );

  it(
    'the runaway guard: without live notices its text joins the answer, the paused children say why, and the permission resumes the tree',
    { timeout: 60000 },
    async () => {
      const h = await home(({ body }) => {
        const task = firstUser(body);
        if (task.startsWith('job ')) {
          // A tool step first: the pause holds at its boundary.
          if (!toolResults(body).length) return { kind: 'tools', calls: [{ id: 'l', name: 'list_files', args: {} }] };
          return { kind: 'text', chunks: [`finished ${task}`] };
        }
        if (toolResults(body).length) return { kind: 'text', chunks: [`root collected ${toolResults(body).length}`] };
        return {
          kind: 'tools',
          calls: [1, 2, 3].map((i) => ({ id: `s${i}`, name: 'spawn_subagent', args: { prompt: `job ${i}` } })),
        };
      }, '\n[runtime_profiles.default]\nparallel_tools = true\n[delegation.runaway]\nmax_tree_size = 2\non_trip = "pause_tree"\n');
      let pausedSeen!: () => void;
      const paused = new Promise<void>((r) => (pausedSeen = r));
      const peer = startAcp(
        h,
        async (req) => {
          // The guard's ask is answered once a child's update has said why it is paused.
          if (req.toolCall.toolCallId.startsWith('runaway-')) await paused;
          return req.options.find((o) => o.kind === 'allow_once')!.optionId;
        },
        cleanups,
      );
      const sessionId = await peer.open({ subagents: {} });
      const turn = peer.prompt(sessionId, 'go');
      const why = await peer.waitFor((n) => sub(n)?.state?._meta?.arbor?.pausedBy === 'runaway');
      expect(sub(why).state).toMatchObject({
        state: 'requires_action',
        _meta: {
          arbor: {
            workState: 'paused',
            pausedWhy: 'paused by the runaway guard (max_tree_size): answer its permission request to resume or kill the tree',
          },
        },
      });
      pausedSeen();
      expect((await turn).stopReason).toBe('end_turn');
      const ask = peer.asks.find((a) => a.toolCall.toolCallId.startsWith('runaway-'))!;
      expect(ask).toMatchObject({ sessionId, toolCall: { title: 'The runaway guard stopped the tree (max_tree_size)' } });
      expect(ask.options.map((o) => o.optionId)).toEqual(['resume', 'kill']);
      const answer = answerIn(peer.updates.filter((n) => n.sessionId === sessionId));
      expect(answer).toMatch(/Runaway guard: max_tree_size is 2, the tree measured \d+\. Action taken: the whole tree paused\./);
      expect(answer).toContain('root collected 3');
      // A child's session takes no prompts: refused saying why, not "not found".
      await expect(
        peer.conn.agent.request('session/prompt', { sessionId: sub(why).sessionId, prompt: [{ type: 'text', text: 'hi' }] }),
      ).rejects.toMatchObject({ code: -32602, data: { sessionId: sub(why).sessionId } });
      const refusal = await peer.conn.agent
        .request('session/prompt', { sessionId: sub(why).sessionId, prompt: [{ type: 'text', text: 'hi' }] })
        .catch((err: acp.RequestError) => err.message);
      expect(refusal).toContain(`${sub(why).sessionId} is a child's session: it takes no prompts over ACP`);
      expect(peer.updates.some((n) => kindOf(n) === 'notice')).toBe(false);
    },
  );

  it('a child budget stop: the flattened child ends failed saying which limit stopped it', { timeout: 60000 }, async () => {
    const h = await home(({ body }) => {
      if (firstUser(body) === 'spend')
        return { kind: 'tools', calls: [{ id: 'l', name: 'list_files', args: {} }], usage: { input: 100, output: 20 } };
      if (toolResults(body).length) return { kind: 'text', chunks: ['root done'] };
      return { kind: 'tools', calls: [{ id: 's1', name: 'spawn_subagent', args: { prompt: 'spend' } }] };
    }, '\n[delegation]\nmax_child_tokens = 50\n');
    const peer = startAcp(h, () => 'deny', cleanups);
    const sessionId = await peer.open();
    expect((await peer.prompt(sessionId, 'go')).stopReason).toBe('end_turn');
    const child = peer.updates
      .filter((n) => (n.update as any).toolCallId?.startsWith('child-'))
      .map((n) => n.update as acp.ToolCallUpdate)
      .at(-1)!;
    expect(child.status).toBe('failed');
    expect((child.content?.[0] as any).content.text).toContain(
      'child budget exhausted: max_child_tokens = 50, used 120; the child was stopped',
    );
  });
});
