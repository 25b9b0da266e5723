// `arbor acp` driven by the official SDK's client side over real stdio, for the two reports
// the other ACP suites leave out: the runtime's receipt (`child_receipts = true`) and an
// isolated child's worktree note. The root spawns one child in its own git worktree; the
// child writes one file (approved by `subagent_approvals`, no ask reaches the client) and
// answers; merge = "auto" applies it. The editor must see, in the parent's finished tool
// call, the same result the parent model reads: the answer, the receipt naming the file the
// runtime observed, and the worktree note, and the file must be in the real repository.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import { fakeProviderConfig } from '../support/tempHome.js';
import { firstUser, toolResults } from '../support/wireBody.js';
import { acpHome, startAcp } from '../helpers/acpPeer.js';
import { git, gitRepo } from '../helpers/git.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TASK = 'write the note';
const NOTE = 'from the isolated child\n';

/** Every request body the model got, and the replies: the root spawns one isolated child,
 * the child writes note.txt and answers, the root answers once it has the child's result. */
function script(seen: unknown[]) {
  return ({ body }: LoopbackIncoming): LoopbackReply => {
    seen.push(body);
    if (firstUser(body) === TASK) {
      if (toolResults(body).length) return { kind: 'text', chunks: ['note written'] };
      return { kind: 'tools', calls: [{ id: 'w1', name: 'write_file', args: { path: 'note.txt', content: NOTE } }] };
    }
    if (toolResults(body).length) return { kind: 'text', chunks: ['root done'] };
    return { kind: 'tools', calls: [{ id: 's1', name: 'spawn_subagent', args: { prompt: TASK, isolation: 'worktree' } }] };
  };
}

const kindOf = (n: acp.SessionNotification) => n.update.sessionUpdate;
const arborMeta = (n: acp.SessionNotification) => (n.update._meta as { arbor?: { tool?: string } } | undefined)?.arbor;

const RECEIPT = '[runtime receipt: 1 tool call; files changed: note.txt (+1 -0); commands: none]';
const MERGED = '[worktree: changes merged (1 file)]';

describe('arbor acp: receipts and worktrees reported to the client', () => {
  for (const [label, caps] of [
    ['children flattened into the parent stream', {}],
    ['children as subagent sessions', { subagents: {} }],
  ] as const) {
    it(
      `${label}: the parent's finished tool call carries the child's receipt and worktree note; the file is merged`,
      { timeout: 60000 },
      async () => {
        const seen: unknown[] = [];
        const { h } = await acpHome(
          script(seen),
          (url) => `${fakeProviderConfig(url)}\n[delegation]\nsubagent_approvals = "allow"\nmerge = "auto"\nchild_receipts = true\n`,
          cleanups,
        );
        gitRepo(h.dir, { 'a.txt': 'one\n', '.gitignore': '.arbor/\n' });
        const peer = startAcp(h, () => 'deny', cleanups);
        const sessionId = await peer.open(caps);
        expect((await peer.prompt(sessionId, 'go')).stopReason).toBe('end_turn');

        const mine = peer.updates.filter((n) => n.sessionId === sessionId);
        const spawn = mine.find((n) => kindOf(n) === 'tool_call' && arborMeta(n)?.tool === 'spawn_subagent')!.update as acp.ToolCall;
        const finished = mine
          .filter((n) => kindOf(n) === 'tool_call_update' && (n.update as acp.ToolCallUpdate).toolCallId === spawn.toolCallId)
          .map((n) => n.update as acp.ToolCallUpdate)
          .at(-1)!;
        expect(finished.status).toBe('completed');
        const texts = (finished.content ?? []).flatMap((c) => (c.type === 'content' && c.content.type === 'text' ? [c.content.text] : []));
        expect(texts).toHaveLength(1);
        // The child's answer, then the runtime's receipt naming the observed file, then the
        // worktree note as the last line, exactly as the terminal's parent model reads them.
        expect(texts[0].split('\n')).toEqual(['note written', RECEIPT, MERGED]);
        // The client saw what the parent model was told, byte for byte.
        const rootWithResult = seen.find((b) => firstUser(b) === 'go' && toolResults(b).length > 0);
        expect(toolResults(rootWithResult)[0].content).toBe(texts[0]);

        // Merged into the real checkout, uncommitted; the child's worktree and branch are gone.
        expect(readFileSync(join(h.dir, 'note.txt'), 'utf8')).toBe(NOTE);
        expect(git(h.dir, 'status', '--porcelain')).toBe('?? note.txt\n');
        expect(git(h.dir, 'for-each-ref', 'refs/heads/arbor/')).toBe('');
        const wt = join(h.home, 'worktrees');
        expect(existsSync(wt) ? readdirSync(wt) : []).toEqual([]);
        // The write was approved by subagent_approvals: no ask reached the client.
        expect(peer.asks).toEqual([]);
        expect(await peer.end()).toBe(0);
      },
    );
  }
});
