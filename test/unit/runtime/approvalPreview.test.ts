// What an ask carries besides the arguments, against the real runtime and loopback model:
// write_file's diff (computed before anything is written), the mark for a file the run
// never read (gone after a read_file of it, also in the same model step), a new file,
// file text neutralised, a child's ask (subagent_approvals = "ask") with its own diff.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../../src/model/controls.js';
import type { DiffDisplay } from '../../../src/model/toolDisplay.js';
import { ApprovalBroker, type ApprovalRequest } from '../../../src/runtime/approvals.js';
import { createRuntimeStore, type RuntimeStore } from '../../../src/runtime/store.js';
import type { Tool } from '../../../src/tools/types.js';
import { risk } from '../tools/helpers.js';
import { hasToolResults, lastUserText, type LoopbackIncoming, type LoopbackReply } from '../../support/loopbackModel.js';
import { baseToml, calls, firstUserText, makeFixture, text, type Fixture } from '../../helpers/runtimeFixture.js';

let fx: Fixture | undefined;

const asks = (): PendingApproval[] => fx!.runtime.store.getState().controls.approvals;
const until = async (cond: () => boolean, what: string) => {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > 5000) throw new Error(`${what} not met within 5000 ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** Each user message names the calls of the model's one step; then it says `done`. */
const STEPS: Record<string, Array<{ id: string; name: string; args: object }>> = {
  'blind write': [{ id: 'w1', name: 'write_file', args: { path: 'a.txt', content: 'one\nTWO\nthree\n' } }],
  'read then write': [
    { id: 'r2', name: 'read_file', args: { path: './b.txt' } },
    { id: 'w2', name: 'write_file', args: { path: 'b.txt', content: 'b2\n' } },
  ],
  'new file': [{ id: 'w3', name: 'write_file', args: { path: 'src/new.txt', content: 'x\ny\n' } }],
  hostile: [{ id: 'w4', name: 'write_file', args: { path: 'c.txt', content: 'safe\n\u001b]0;pwned\u0007\u001b[2Jboom\n' } }],
};

function respond({ body }: LoopbackIncoming): LoopbackReply {
  if (firstUserText(body) === 'child writes') {
    if (hasToolResults(body)) return text('child done');
    return calls({ id: 'cw', name: 'write_file', args: { path: 'a.txt', content: 'child\n' } });
  }
  if (hasToolResults(body)) return text('done');
  if (lastUserText(body) === 'spawn') return calls({ id: 'sp', name: 'spawn_subagent', args: { prompt: 'child writes' } });
  return calls(...(STEPS[lastUserText(body)] ?? []));
}

async function interactive(extra = '') {
  fx = await makeFixture({ respond, toml: (u) => baseToml(u, extra), runtime: { interactive: true } });
  writeFileSync(join(fx.workdir, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(fx.workdir, 'b.txt'), 'b1\n');
  writeFileSync(join(fx.workdir, 'c.txt'), 'old\n');
  return fx;
}

async function askFor(message: string): Promise<{ ask: PendingApproval; turn: Promise<unknown> }> {
  const turn = fx!.runtime.startTurn(message);
  await until(() => asks().length === 1, `an ask for '${message}'`);
  return { ask: asks()[0], turn };
}

describe('an ask carries the change it would make', () => {
  it('write_file over an unread file: the diff of what is there, before anything is written, and the unread mark', async () => {
    await interactive();
    const { ask, turn } = await askFor('blind write');
    expect(ask.tool).toBe('write_file');
    const d = ask.preview as DiffDisplay;
    expect(d).toMatchObject({ kind: 'diff', path: 'a.txt', added: 1, removed: 1 });
    expect(d.created).toBeUndefined();
    expect(d.hunks[0].lines).toEqual([' one', '-two', '+TWO', ' three']);
    expect(ask.unreadFile).toBe(true);
    // Asked, not yet allowed: the preview wrote nothing.
    expect(readFileSync(join(fx!.workdir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    fx!.runtime.answerApproval(ask.id, 'allow_once');
    await turn;
    expect(readFileSync(join(fx!.workdir, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  });

  it('a read_file of the path earlier in the same step clears the mark (paths compared where they land)', async () => {
    await interactive();
    const { ask, turn } = await askFor('read then write');
    expect(ask.preview).toMatchObject({ kind: 'diff', path: 'b.txt', added: 1, removed: 1 });
    expect(ask.unreadFile).toBeUndefined();
    fx!.runtime.answerApproval(ask.id, 'deny');
    await turn;
  });

  it('a write the run made before counts as seen: the second blind write of a.txt is not marked', async () => {
    await interactive();
    const first = await askFor('blind write');
    fx!.runtime.answerApproval(first.ask.id, 'allow_once');
    await first.turn;
    writeFileSync(join(fx!.workdir, 'a.txt'), 'one\ntwo\nthree\n');
    const second = await askFor('blind write');
    expect(second.ask.unreadFile).toBeUndefined();
    fx!.runtime.answerApproval(second.ask.id, 'deny');
    await second.turn;
  });

  it('a new file is its lines, created, never marked unread', async () => {
    await interactive();
    const { ask, turn } = await askFor('new file');
    expect(ask.preview).toMatchObject({ kind: 'diff', path: 'src/new.txt', created: true, added: 2, removed: 0 });
    expect((ask.preview as DiffDisplay).hunks[0].lines).toEqual(['+x', '+y']);
    expect(ask.unreadFile).toBeUndefined();
    expect(existsSync(join(fx!.workdir, 'src'))).toBe(false);
    fx!.runtime.answerApproval(ask.id, 'deny');
    await turn;
  });

  it('file text in the diff is neutralised: no escape or control byte reaches the prompt', async () => {
    await interactive();
    const { ask, turn } = await askFor('hostile');
    const lines = (ask.preview as DiffDisplay).hunks.flatMap((h) => h.lines).join('\n');
    expect(lines).toContain('boom');
    expect(lines).not.toMatch(/[\u001b\u0007]/);
    fx!.runtime.answerApproval(ask.id, 'deny');
    await turn;
  });

  it("a child's ask in the operator queue carries its diff too", async () => {
    await interactive('[delegation]\nsubagent_approvals = "ask"\n');
    const { ask, turn } = await askFor('spawn');
    expect(ask.isChild).toBe(true);
    expect(ask.preview).toMatchObject({ kind: 'diff', path: 'a.txt', added: 1, removed: 3 });
    expect(ask.unreadFile).toBe(true);
    fx!.runtime.answerApproval(ask.id, 'deny');
    await turn;
  });

  it('an auto-approved write is not previewed and does not ask', async () => {
    await interactive('[risk_profiles.default]\nauto_approve = ["write_file"]\n');
    await fx!.runtime.startTurn('blind write');
    expect(asks()).toEqual([]);
    expect(readFileSync(join(fx!.workdir, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  });
});

describe('the broker and a preview still being computed', () => {
  const tool = (preview: () => Promise<DiffDisplay | undefined>): Tool => ({
    name: 'write_file',
    asksByDefault: true,
    spec: () => ({ name: 'write_file', description: '', parameters: {} }),
    run: async () => ({ success: true, output: '' }),
    preview: () => preview(),
  });
  const diff: DiffDisplay = { kind: 'diff', path: 'a.txt', hunks: [], added: 1, removed: 0 };
  const request = (t: Tool, callId: string, signal = new AbortController().signal): ApprovalRequest => ({
    runId: 'r',
    callId,
    tool: t,
    args: {},
    risk: risk(),
    isChild: false,
    signal,
    preview: async () => ({ display: (await t.preview!({}, undefined as never))! }),
  });
  const broker = (store: RuntimeStore) =>
    new ApprovalBroker(store, { interactive: true, autoYes: false, subagentApprovals: () => ({ mode: 'deny' }) as never });

  it('an ask covered by "allow for this session" given meanwhile is never shown', async () => {
    const store = createRuntimeStore('s');
    const b = broker(store);
    let release!: () => void;
    const slow = tool(() => new Promise((r) => (release = () => r(diff))));
    const first = b.decide(
      request(
        tool(async () => diff),
        'c1',
      ),
    );
    await until(() => store.getState().controls.approvals.length === 1, 'the first ask');
    const second = b.decide(request(slow, 'c2'));
    b.answer(store.getState().controls.approvals[0].id, 'allow_session');
    await expect(first).resolves.toEqual({ allowed: true, asked: 'allow_session' });
    release();
    await expect(second).resolves.toEqual({ allowed: true, asked: 'granted' });
    expect(store.getState().controls.approvals).toEqual([]);
  });

  it('a run stopped while its preview is computed asks nothing', async () => {
    const store = createRuntimeStore('s');
    const b = broker(store);
    let release!: () => void;
    const ac = new AbortController();
    const pending = b.decide(
      request(
        tool(() => new Promise((r) => (release = () => r(diff)))),
        'c1',
        ac.signal,
      ),
    );
    ac.abort();
    release();
    await expect(pending).resolves.toMatchObject({ allowed: false, asked: 'withdrawn' });
    expect(store.getState().controls.approvals).toEqual([]);
  });
});
