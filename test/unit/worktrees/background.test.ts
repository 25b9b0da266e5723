// A background isolated child's task record carries its worktree note (issue #23): the
// parent model reads the same `[worktree: …]` outcome through await_sessions and
// check_result that a foreground result ends with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoopbackIncoming } from '../../support/loopbackModel.js';
import { WORKTREE_MERGED, WORKTREE_NO_CHANGES, WORKTREE_UNFINISHED, WORKTREE_WAITING } from '../../../src/tools/worktreeNotes.js';
import { delegateCall, lastToolResult, sequence, text, toolItems, type DelegateFixture } from '../delegate/helpers.js';
import { A, fail500, isoConfig, isoFixture, runsOf, sed, shell, tools } from './helpers.js';

let fx: DelegateFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const taskIdIn = (req: LoopbackIncoming) => /task_id: ([0-9a-f-]{36})/.exec(lastToolResult(req))![1];

/** main starts w1 in the background, waits for it, then checks its result. */
async function background(merge: string, w1: Parameters<typeof sequence>) {
  fx = await isoFixture({
    config: isoConfig(`merge = "${merge}"`),
    agents: {
      main: sequence(
        delegateCall({ agent: 'w1', prompt: 'edit', isolation: 'worktree', background: true }),
        (req) => tools({ id: 'aw', name: 'delegate', args: { action: 'await_sessions', task_ids: [taskIdIn(req)] } }),
        (req) => {
          const id = Object.keys(JSON.parse(lastToolResult(req)).results)[0];
          return tools({ id: 'ck', name: 'delegate', args: { action: 'check_result', task_id: id } });
        },
        text('done'),
      ),
      w1: sequence(...w1),
    },
  });
  await fx.runtime.startTurn('go');
  const mains = fx.requestsOf('main');
  expect(mains).toHaveLength(4);
  const awaited = JSON.parse(lastToolResult(mains[2]));
  const [taskId] = Object.keys(awaited.results);
  const checked = JSON.parse(lastToolResult(mains[3]));
  const record = JSON.parse(readFileSync(join(fx.home, 'tasks', `${taskId}.json`), 'utf8'));
  return { awaited: awaited.results[taskId], checked, record, w1: runsOf(fx, 'w1')[0] };
}

describe("a background isolated child's task record carries the worktree note", () => {
  it('merged: await_sessions and check_result give the model the note', async () => {
    const r = await background('auto', [tools(shell('s1', sed('s/^two$/TWO/'))), text('w1 done')]);
    expect(r.w1.worktree?.state).toBe('merged');
    expect(readFileSync(join(fx!.workdir, 'a.txt'), 'utf8')).toBe(A.replace('two', 'TWO'));
    for (const seen of [r.record, r.awaited, r.checked]) {
      expect(seen).toMatchObject({ status: 'completed', output: 'w1 done', worktree: WORKTREE_MERGED(1) });
    }
    expect(WORKTREE_MERGED(1)).toBe('[worktree: changes merged (1 file)]');
    // The check_result card reads the note from its display, not from the model's text.
    const displays = toolItems(fx!.runtime.store.getState().transcript).map((i) => i.display);
    const check = displays.find((d) => d?.kind === 'delegate' && d.action === 'check_result');
    expect(check?.kind === 'delegate' && check.targets[0]?.worktree).toBe(WORKTREE_MERGED(1));
  });

  it('waiting for the operator (merge = "ask")', async () => {
    const r = await background('ask', [tools(shell('s1', sed('s/^two$/TWO/'))), text('w1 done')]);
    expect(r.w1.worktree?.state).toBe('waiting');
    for (const seen of [r.record, r.awaited, r.checked]) expect(seen.worktree).toBe(WORKTREE_WAITING(1));
    expect(readFileSync(join(fx!.workdir, 'a.txt'), 'utf8')).toBe(A);
  });

  it('no changes', async () => {
    const r = await background('auto', [text('nothing to do')]);
    for (const seen of [r.record, r.awaited, r.checked]) expect(seen.worktree).toBe(WORKTREE_NO_CHANGES);
  });

  it('a failed child: the note says where its branch keeps the changes', async () => {
    const r = await background('auto', [tools(shell('s1', sed('s/^one$/ONE/'))), fail500]);
    expect(r.w1.status).toBe('failed');
    const note = WORKTREE_UNFINISHED(r.w1.worktree!.branch);
    for (const seen of [r.record, r.awaited, r.checked]) expect(seen).toMatchObject({ status: 'failed', worktree: note });
    expect(readFileSync(join(fx!.workdir, 'a.txt'), 'utf8')).toBe(A);
  });
});
