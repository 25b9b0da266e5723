import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastUserText } from '../../support/loopbackModel.js';
import { baseToml, calls, firstUserText, makeFixture, text, toolMessages, until, type Fixture } from '../../helpers/runtimeFixture.js';
import { spawnOne, toolThenAnswer } from '../support/spawnScript.js';
import { messagesWithRole } from '../../support/wireRequest.js';

let fx: Fixture | undefined;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('kill cascades from parent to child', () => {
  it('aborts a child mid-stream: the model request is dropped and both runs end killed', async () => {
    fx = await makeFixture({
      respond: ({ body }) => {
        if (firstUserText(body) === 'slow child') return { kind: 'hang' };
        return calls({ id: 'k1', name: 'spawn_subagent', args: { prompt: 'slow child' } });
      },
    });
    const turn = fx.runtime.startTurn('go');
    await until(() => fx!.server.requests.some((r) => firstUserText(r.body) === 'slow child'));
    const s = fx.runtime.store.getState();
    const root = s.runs.values().find((r) => r.kind === 'root')!;
    const result = fx.runtime.kill(root.id);
    expect(result).toEqual({ killed: true, descendants: 1 });
    // The child reads as killed at once, before its stream has unwound.
    const childNow = fx.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.kind === 'subagent')!;
    expect(childNow).toMatchObject({ status: 'killed', error: 'killed by the operator' });
    // The view words it from the code, in the current language.
    expect(childNow.errorCode).toBe('killedByOperator');
    expect(childNow.endedAt).toBeDefined();
    await turn;
    const childReq = fx.server.requests.find((r) => firstUserText(r.body) === 'slow child')!;
    await expect(childReq.ended).resolves.toBe('client_closed');
    const runs = fx.runtime.store.getState().runs.values();
    expect(runs.find((r) => r.kind === 'root')!.status).toBe('killed');
    expect(runs.find((r) => r.kind === 'subagent')!.status).toBe('killed');
  });

  it('aborts a child mid-shell: the whole process tree is gone', async () => {
    fx = await makeFixture({
      toml: (u) => baseToml(u, '[delegation]\nsubagent_auto_approve = true\n'),
      respond: spawnOne(
        'run shell',
        toolThenAnswer(calls({ id: 's1', name: 'shell', args: { command: 'sleep 30 & echo $! > sleeper.pid; wait' } }), 'shell ended'),
        'root continues',
        'p1',
      ),
    });
    const turn = fx.runtime.startTurn('go');
    const pidFile = join(fx.workdir, 'sleeper.pid');
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '');
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(alive(pid)).toBe(true);
    const child = fx.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.kind === 'subagent')!;
    expect(fx.runtime.kill(child.id)).toEqual({ killed: true, descendants: 0 });
    await turn;
    // PID 1 here can take ~1.5 s to reap a killed process, so poll generously.
    await until(() => !alive(pid), 10000);
    // the parent's tool call got a failed result and the parent continued
    const last = fx.server.requests.at(-1)!.body;
    expect(toolMessages(last)[0].content).toBe('subagent run failed: killed by the operator');
    const runs = fx.runtime.store.getState().runs;
    expect(runs.get(child.id)!.status).toBe('killed');
    expect(runs.values().find((r) => r.kind === 'root')!.status).toBe('completed');
  });

  it('interrupting the turn cancels the child and keeps the partial reply', async () => {
    fx = await makeFixture({
      respond: ({ body }) => {
        if (firstUserText(body) === 'hang') return { kind: 'hang' };
        if (lastUserText(body) === 'again') return text('fine');
        return calls({ id: 'x', name: 'spawn_subagent', args: { prompt: 'hang' } });
      },
    });
    const turn = fx.runtime.startTurn('go');
    await until(() => fx!.server.requests.length >= 2);
    fx.runtime.interrupt();
    await turn;
    const runs = fx.runtime.store.getState().runs.values();
    expect(runs.find((r) => r.kind === 'root')!.status).toBe('cancelled');
    expect(runs.find((r) => r.kind === 'subagent')!.status).toBe('cancelled');
    // the next turn's request is well-formed: the interrupted call got a result
    await fx.runtime.startTurn('again');
    const body = fx.server.requests.at(-1)!.body;
    const assistantCall = messagesWithRole(body, 'assistant').find((m) => m.tool_calls);
    expect(assistantCall?.tool_calls?.[0].id).toBe('x');
    expect(toolMessages(body)).toEqual([{ tool_call_id: 'x', content: expect.stringMatching(/.+/) }]);
    expect(
      fx.runtime.store
        .getState()
        .runs.values()
        .filter((r) => r.kind === 'root')
        .at(-1)!.status,
    ).toBe('completed');
  });
});

describe('approvals at the root (interactive operator)', () => {
  const writeTwice = ({ body }: { body: unknown }) => {
    const results = toolMessages(body).length;
    if (results === 0) return calls({ id: 'w1', name: 'write_file', args: { path: 'a.txt', content: 'A' } });
    if (results === 1) return calls({ id: 'w2', name: 'write_file', args: { path: 'b.txt', content: 'B' } });
    return text('done');
  };

  it('allow once, then asks again; deny leaves the file unwritten', async () => {
    fx = await makeFixture({ respond: writeTwice, runtime: { interactive: true } });
    const turn = fx.runtime.startTurn('write');
    await until(() => fx!.runtime.store.getState().controls.approvals.length === 1);
    const first = fx.runtime.store.getState().controls.approvals[0];
    expect(first.tool).toBe('write_file');
    const root = fx.runtime.store.getState().runs.values()[0];
    expect(root.status).toBe('awaiting_approval');
    fx.runtime.answerApproval(first.id, 'allow_once');
    await until(() => fx!.runtime.store.getState().controls.approvals.some((a) => a.id !== first.id));
    fx.runtime.answerApproval(fx.runtime.store.getState().controls.approvals[0].id, 'deny');
    await turn;
    expect(readFileSync(join(fx.workdir, 'a.txt'), 'utf8')).toBe('A');
    expect(existsSync(join(fx.workdir, 'b.txt'))).toBe(false);
    expect(toolMessages(fx.server.requests.at(-1)!.body)[1].content).toMatch(/operator denied/);
  });

  it('allow for this session stops asking for that tool', async () => {
    fx = await makeFixture({ respond: writeTwice, runtime: { interactive: true } });
    const turn = fx.runtime.startTurn('write');
    await until(() => fx!.runtime.store.getState().controls.approvals.length === 1);
    fx.runtime.answerApproval(fx.runtime.store.getState().controls.approvals[0].id, 'allow_session');
    await turn;
    expect(readFileSync(join(fx.workdir, 'b.txt'), 'utf8')).toBe('B');
  });

  it('headless without --yes denies; with --yes allows', async () => {
    fx = await makeFixture({ respond: writeTwice });
    await fx.runtime.startTurn('write');
    expect(existsSync(join(fx.workdir, 'a.txt'))).toBe(false);
    expect(toolMessages(fx.server.requests.at(-1)!.body)[0].content).toMatch(/--yes/);
    await fx.cleanup();
    fx = await makeFixture({ respond: writeTwice, runtime: { autoYes: true } });
    await fx.runtime.startTurn('write');
    expect(readFileSync(join(fx.workdir, 'b.txt'), 'utf8')).toBe('B');
  });
});
