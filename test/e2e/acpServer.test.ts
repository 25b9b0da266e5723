// `arbor acp` driven by the official SDK's client side over real stdio: the built CLI is the
// agent, a loopback model answers. The root fans out three children: one writes a file after
// a permission the client answers on the child's session, one hangs until the client cancels
// its session, one answers. Then a new process loads the saved session.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopbackIncoming, type LoopbackReply } from '../support/loopbackModel.js';
import { fakeProviderConfig, type ArborHome } from '../support/tempHome.js';
import { startAcp as startPeer, type Peer, acpAgentLines, acpHome } from '../helpers/acpPeer.js';
import { alive } from '../support/procs.js';
import { firstUser, toolResults } from '../support/wireBody.js';
import { messagesWithRole } from '../support/wireRequest.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function fanOut({ body }: LoopbackIncoming): LoopbackReply {
  const task = firstUser(body);
  if (task === 'child writes') {
    if (toolResults(body).length) return { kind: 'text', chunks: ['wrote it'] };
    return { kind: 'tools', calls: [{ id: 'w1', name: 'write_file', args: { path: 'child.txt', content: 'from the child\n' } }] };
  }
  if (task === 'child hangs') return { kind: 'hang' };
  if (task === 'child answers') return { kind: 'text', chunks: ['answer C'] };
  if (toolResults(body).length) return { kind: 'text', chunks: ['parent done'] };
  return spawns({ sa: 'child writes', sb: 'child hangs', sc: 'child answers' });
}

/** One spawn_subagent call per entry: call id → the child's prompt. */
function spawns(prompts: Record<string, string>): LoopbackReply {
  return { kind: 'tools', calls: Object.entries(prompts).map(([id, prompt]) => ({ id, name: 'spawn_subagent', args: { prompt } })) };
}

/** main under a lead profile that may delegate to `delegate`; `lines` follow [risk_profiles.lead]. */
function leadConfig(url: string, delegate: string, lines: string[]): string {
  const main = fakeProviderConfig(url, 'fake-model', `risk_profile = "lead"\ndelegates = ["${delegate}"]`);
  return main + ['[risk_profiles.lead]', 'delegation_policy = { mode = "allow" }', ...lines, ''].join('\n');
}

/** A client (denying every permission) with a session that asked for subagent sessions,
 * whose first prompt, "go", is under way. */
async function goWithSubagents(h: ArborHome) {
  const peer = startAcp(h, () => 'deny');
  const sessionId = await peer.open({ subagents: {} });
  return { peer, sessionId, turn: peer.prompt(sessionId, 'go') };
}

function startAcp(h: ArborHome, answer: (req: acp.RequestPermissionRequest) => string): Peer {
  return startPeer(h, answer, cleanups);
}

const kindOf = (n: acp.SessionNotification) => n.update.sessionUpdate;

describe('arbor acp with an SDK client', () => {
  it(
    'streams three children as subagent sessions, asks on the child session, cancels one subtree, and loads the session',
    { timeout: 60000 },
    async () => {
      const { h } = await acpHome(
        fanOut,
        (url) => `${fakeProviderConfig(url)}\n[delegation]\nsubagent_approvals = "ask"\nconfirm_fanout_over = 2\n`,
        cleanups,
      );

      const peer = startAcp(h, (req) => req.options.find((o) => o.kind === 'allow_once')!.optionId);
      const init = await peer.conn.agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, subagents: {} },
      });
      expect(init.agentInfo?.name).toBe('arbor');
      expect(init.agentCapabilities?.loadSession).toBe(true);
      const { sessionId, configOptions } = await peer.conn.agent.request('session/new', { cwd: h.dir, mcpServers: [] });
      expect(configOptions?.[0]?.id).toBe('model');

      const turn = peer.prompt(sessionId, 'go');
      // The hanging child is cancelled through its own session as soon as it runs.
      const hanging = await peer.waitFor(
        (n) => n.update.sessionUpdate === 'subagent_update' && (n.update as any).description?.includes('child hangs'),
      );
      const hangSession = (hanging.update as acp.SubagentUpdate).sessionId;
      await peer.waitFor(
        (n) =>
          n.update.sessionUpdate === 'subagent_update' &&
          (n.update as any).sessionId === hangSession &&
          (n.update as any).state?.state === 'running',
      );
      await peer.conn.agent.notify('session/cancel', { sessionId: hangSession });
      const done = await turn;
      expect(done.stopReason).toBe('end_turn');

      const subs = peer.updates
        .filter((n) => kindOf(n) === 'subagent_update')
        .map((n) => n.update as acp.SubagentUpdate & { sessionUpdate: string });
      // Each child is announced on the root session with its label, agent and model.
      const announced = subs.filter((u) => u.title !== undefined);
      expect(announced).toHaveLength(3);
      for (const a of announced) {
        expect(a.title).toMatch(/^main#[123]$/);
        expect((a._meta as any).arbor).toMatchObject({ agent: 'main', model: 'openai-compatible/fake-model' });
        expect(a.capabilities).toEqual({ cancel: {} });
      }
      expect(peer.updates.filter((n) => kindOf(n) === 'subagent_update').every((n) => n.sessionId === sessionId)).toBe(true);
      const childSession = (task: string) => announced.find((a) => a.description?.includes(task))!.sessionId;
      const [writes, answers] = [childSession('child writes'), childSession('child answers')];
      const finalState = (sid: string) => subs.filter((u) => u.sessionId === sid && u.state).at(-1)!.state as any;
      expect(finalState(writes)).toMatchObject({ state: 'idle', stopReason: 'end_turn' });
      expect(finalState(answers)).toMatchObject({ state: 'idle', stopReason: 'end_turn' });
      // Cancel on the child's session killed that child only.
      expect(finalState(hangSession)).toMatchObject({
        state: 'idle',
        stopReason: 'cancelled',
        _meta: { arbor: { workState: 'finished', status: 'killed' } },
      });

      // The fan-out over confirm_fanout_over was confirmed first, on the root session.
      expect(peer.asks).toHaveLength(2);
      expect(peer.asks[0]).toMatchObject({ sessionId, toolCall: { title: 'Start 3 children at once (over the limit of 2)?' } });
      expect(peer.asks[0].options.map((o) => o.optionId)).toEqual(['all', 'none']);
      // The permission was asked on the writing child's own session, with arbor's child choices.
      expect(peer.asks[1].sessionId).toBe(writes);
      expect(peer.asks[1].options.map((o) => o.optionId)).toEqual(['allow_once', 'allow_child', 'allow_tree', 'deny']);
      expect(readFileSync(join(h.dir, 'child.txt'), 'utf8')).toBe('from the child\n');

      // The child's write_file streams on its session as a tool call ending with a diff.
      const onWrites = peer.updates.filter((n) => n.sessionId === writes);
      const call = onWrites.find((n) => kindOf(n) === 'tool_call')!.update as acp.ToolCall;
      expect(call.kind).toBe('edit');
      // The ask names the same tool call the child's session streams.
      expect(peer.asks[1].toolCall.toolCallId).toBe(call.toolCallId);
      const finished = onWrites
        .filter((n) => kindOf(n) === 'tool_call_update')
        .map((n) => n.update as acp.ToolCallUpdate)
        .at(-1)!;
      expect(finished.status).toBe('completed');
      expect(finished.content?.[0]).toMatchObject({
        type: 'diff',
        path: join(h.dir, 'child.txt'),
        oldText: null,
        newText: 'from the child',
      });
      expect(onWrites.some((n) => kindOf(n) === 'agent_message_chunk' && (n.update as any).content.text === 'wrote it')).toBe(true);
      expect(peer.updates.some((n) => n.sessionId === answers && kindOf(n) === 'agent_message_chunk')).toBe(true);

      // The parent's spawn_subagent calls link to the children's sessions.
      // The parent's spawn_subagent calls link to the children's sessions. arbor sends the
      // spec's `session` tool call content too, which this SDK version (2.4.0) does not know and
      // drops on parsing; the link also travels in _meta, which it keeps.
      const linked = peer.updates
        .filter((n) => n.sessionId === sessionId && kindOf(n) === 'tool_call_update')
        .flatMap((n) => ((n.update._meta as any)?.arbor?.childSessionIds ?? []) as string[]);
      expect(new Set(linked)).toEqual(new Set([writes, hangSession, answers]));
      const answerText = peer.updates
        .filter((n) => n.sessionId === sessionId && kindOf(n) === 'agent_message_chunk')
        .map((n) => (n.update as any).content.text)
        .join('');
      expect(answerText).toBe('parent done');

      // Closing stdin ends the server; a new one loads the saved session and replays it.
      peer.proc.stdin!.end();
      await new Promise((r) => (peer.proc.exitCode !== null ? r(null) : peer.proc.once('exit', r)));
      expect(peer.proc.exitCode).toBe(0);

      const again = startAcp(h, () => 'deny');
      await again.conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      await again.conn.agent.request('session/load', { sessionId, cwd: h.dir, mcpServers: [] });
      const replay = again.updates.filter((n) => n.sessionId === sessionId);
      expect(replay.find((n) => kindOf(n) === 'user_message_chunk')?.update).toMatchObject({ content: { type: 'text', text: 'go' } });
      expect(replay.some((n) => kindOf(n) === 'agent_message_chunk' && (n.update as any).content.text === 'parent done')).toBe(true);
      expect(replay.filter((n) => kindOf(n) === 'tool_call').length).toBe(3);
    },
  );

  it("cancel on an external ACP child's session ends that agent's process", { timeout: 60000 }, async () => {
    const { h } = await acpHome(
      ({ body }) =>
        toolResults(body).length
          ? { kind: 'text', chunks: [`root saw: ${toolResults(body)[0].content}`] }
          : { kind: 'tools', calls: [{ id: 'd1', name: 'delegate', args: { agent: 'ext', prompt: 'hang' } }] },
      // It ignores session/cancel: only the process end stops it.
      (url) => leadConfig(url, 'ext', [...acpAgentLines(), 'env = { ACP_FIXTURE_IGNORE_CANCEL = "1" }']),
      cleanups,
    );
    const { peer, sessionId, turn } = await goWithSubagents(h);
    const child = await peer.waitFor((n) => n.update.sessionUpdate === 'subagent_update' && (n.update as any).title === 'ext#1');
    const pidFile = join(h.dir, 'acp-agent.pid');
    await expect.poll(() => existsSync(pidFile), { timeout: 20000 }).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // The agent is mid-turn (it has its prompt) before the cancel: a child cancelled before
    // its prompt was sent leaves a shared process to the session's other children.
    const promptsFile = join(h.dir, 'acp-agent.prompts');
    await expect.poll(() => existsSync(promptsFile) && readFileSync(promptsFile, 'utf8').includes('"hang"'), { timeout: 20000 }).toBe(true);
    await peer.conn.agent.notify('session/cancel', { sessionId: (child.update as acp.SubagentUpdate).sessionId });
    expect((await turn).stopReason).toBe('end_turn');
    await expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);
    const answer = peer.updates
      .filter((n) => n.sessionId === sessionId && kindOf(n) === 'agent_message_chunk')
      .map((n) => (n.update as any).content.text)
      .join('');
    expect(answer).toContain('root saw: ');
    expect(answer).toContain('killed');
  });

  it(
    'flattens children into tool calls of the root session for a client without the subagents capability',
    { timeout: 60000 },
    async () => {
      const { h, model } = await acpHome(
        ({ body }) => {
          const task = firstUser(body);
          if (task.startsWith('part ')) return { kind: 'text', chunks: [`did ${task}`] };
          if (toolResults(body).length) return { kind: 'text', chunks: ['parent done'] };
          return spawns({ s1: 'part one', s2: 'part two' });
        },
        (url) => fakeProviderConfig(url),
        cleanups,
      );
      const peer = startAcp(h, () => 'deny');
      const sessionId = await peer.open();
      expect((await peer.prompt(sessionId, 'go')).stopReason).toBe('end_turn');
      // No subagent_update and no other session: each child is a tool call with its progress.
      expect(peer.updates.some((n) => kindOf(n) === 'subagent_update')).toBe(false);
      expect(new Set(peer.updates.map((n) => n.sessionId))).toEqual(new Set([sessionId]));
      const childCalls = peer.updates
        .filter((n) => kindOf(n) === 'tool_call' && (n.update as acp.ToolCall).toolCallId.startsWith('child-'))
        .map((n) => n.update as acp.ToolCall);
      expect(childCalls.map((c) => c.title).sort()).toEqual([
        'main#1 (openai-compatible/fake-model): part one',
        'main#2 (openai-compatible/fake-model): part two',
      ]);
      for (const c of childCalls) {
        const last = peer.updates
          .filter((n) => kindOf(n) === 'tool_call_update' && (n.update as acp.ToolCallUpdate).toolCallId === c.toolCallId)
          .map((n) => n.update as acp.ToolCallUpdate)
          .at(-1)!;
        expect(last.status).toBe('completed');
        expect((last.content?.[0] as any).content.text).toMatch(/finished · completed\ndid part (one|two)$/);
      }
      // Slash commands that make sense outside a terminal are offered, and run without a model turn.
      const offered = peer.updates.find((n) => kindOf(n) === 'available_commands_update')!.update as acp.AvailableCommandsUpdate;
      expect(offered.availableCommands.map((c) => c.name)).toEqual(['clear', 'model', 'export']);
      const before = model.requests.length;
      await peer.prompt(sessionId, '/model');
      const listed = peer.updates.filter((n) => kindOf(n) === 'agent_message_chunk').at(-1)!.update as any;
      expect(listed.content.text).toContain('* fake (openai-compatible/fake-model)');
      expect(model.requests.length).toBe(before);
    },
  );
  it(
    '/clear keeps the session id on the connection; arbor saves what follows as a new session, and loading the old id brings back only what came before',
    { timeout: 60000 },
    async () => {
      const { h } = await acpHome(
        ({ body }) => ({
          kind: 'text',
          chunks: [`answer to ${JSON.stringify(messagesWithRole(body, 'user').map((m) => m.content))}`],
        }),
        (url) => fakeProviderConfig(url),
        cleanups,
      );
      const peer = startAcp(h, () => 'deny');
      const sessionId = await peer.open();
      const say = (text: string) => peer.prompt(sessionId, text);
      const lastText = () => (peer.updates.filter((n) => kindOf(n) === 'agent_message_chunk').at(-1)!.update as any).content.text as string;
      await say('before');
      await say('/clear');
      const cleared = lastText();
      const newId = /a new session, (\S+);/.exec(cleared)?.[1];
      expect(cleared).toBe(
        `Cleared: what follows is saved as a new session, ${newId}; loading this session's id brings back only what came before.`,
      );
      expect(newId).not.toBe(sessionId);
      // The same ACP session goes on, with the model's context cleared.
      await say('after');
      expect(lastText()).toBe('answer to ["after"]');
      peer.proc.stdin!.end();
      await new Promise((r) => (peer.proc.exitCode !== null ? r(null) : peer.proc.once('exit', r)));

      const again = startAcp(h, () => 'deny');
      await again.conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const userTexts = (id: string) =>
        again.updates.filter((n) => n.sessionId === id && kindOf(n) === 'user_message_chunk').map((n) => (n.update as any).content.text);
      await again.conn.agent.request('session/load', { sessionId, cwd: h.dir, mcpServers: [] });
      expect(userTexts(sessionId)).toEqual(['before']);
      await again.conn.agent.request('session/load', { sessionId: newId!, cwd: h.dir, mcpServers: [] });
      expect(userTexts(newId!)).toEqual(['after']);
    },
  );
  it("session/cancel on a child whose own child runs kills that child's subtree only", { timeout: 60000 }, async () => {
    // helper is an agentic delegate target: unlike a subagent, it may spawn children of its own.
    const { h } = await acpHome(
      ({ body }) => {
        const task = firstUser(body);
        const done = toolResults(body).length > 0;
        if (task.includes('grandchild hangs')) return { kind: 'hang' };
        if (task.includes('sibling answers')) return { kind: 'text', chunks: ['sibling done'] };
        if (task.includes('middle')) {
          if (done) return { kind: 'text', chunks: ['middle done'] };
          return { kind: 'tools', calls: [{ id: 'g1', name: 'spawn_subagent', args: { prompt: 'grandchild hangs' } }] };
        }
        if (done) return { kind: 'text', chunks: ['parent done'] };
        return {
          kind: 'tools',
          calls: [
            { id: 'd1', name: 'delegate', args: { agent: 'helper', prompt: 'middle' } },
            { id: 's1', name: 'spawn_subagent', args: { prompt: 'sibling answers' } },
          ],
        };
      },
      (url) =>
        leadConfig(url, 'helper', [
          '[runtime_profiles.deep]',
          'agentic = true',
          '[agents.helper]',
          'provider = "fake"',
          'risk_profile = "lead"',
          'runtime_profile = "deep"',
        ]),
      cleanups,
    );
    const { peer, sessionId, turn } = await goWithSubagents(h);
    const sub = (n: acp.SessionNotification) => (n.update.sessionUpdate === 'subagent_update' ? (n.update as any) : undefined);
    const middle = await peer.waitFor((n) => sub(n)?.title?.startsWith('helper#') && sub(n)?.description?.includes('middle'));
    const middleSession = sub(middle).sessionId as string;
    // The grandchild is announced on its parent's session, and runs.
    const grand = await peer.waitFor((n) => n.sessionId === middleSession && sub(n)?.description?.includes('grandchild hangs'));
    const grandSession = sub(grand).sessionId as string;
    await peer.waitFor((n) => sub(n)?.sessionId === grandSession && sub(n)?.state?.state === 'running');
    await peer.conn.agent.notify('session/cancel', { sessionId: middleSession });
    expect((await turn).stopReason).toBe('end_turn');

    const finalState = (sid: string) =>
      peer.updates
        .map(sub)
        .filter((u) => u?.sessionId === sid && u.state)
        .at(-1).state;
    const killed = { state: 'idle', stopReason: 'cancelled', _meta: { arbor: { workState: 'finished', status: 'killed' } } };
    expect(finalState(middleSession)).toMatchObject(killed);
    expect(finalState(grandSession)).toMatchObject(killed);
    // The sibling outside that subtree finished on its own, and so did the root's turn.
    const sibling = peer.updates.map(sub).find((u) => u?.description?.includes('sibling answers'));
    expect(finalState(sibling.sessionId)).toMatchObject({ state: 'idle', stopReason: 'end_turn' });
    const answer = peer.updates
      .filter((n) => n.sessionId === sessionId && kindOf(n) === 'agent_message_chunk')
      .map((n) => (n.update as any).content.text)
      .join('');
    expect(answer).toBe('parent done');
  });
});
