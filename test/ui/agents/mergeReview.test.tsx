// The /agents pane's review of a queued merge (issue #23): v on a waiting or conflicting
// entry opens its files, +/−, the conflict check and the diff in the pane; the merge keys
// work there too, and Esc goes back to the list.
import { describe, expect, it } from 'vitest';
import type { MergeReview, RunWorktree, WorktreeApi, WorktreeState } from '../../../src/model/worktree.js';
import { fileDiff } from '../../../src/text/diff.js';
import { addTestRun, KEYS, mountPane, FakeRuntime, waitFor } from './fixtures.js';
import { resetUiBetweenTests } from '../lifecycle.js';

resetUiBetweenTests();

class MergingRuntime extends FakeRuntime {
  review: MergeReview = {
    files: [fileDiff('a.txt', 'one\ntwo\nthree\n', 'one\nTWO\nthree\n'), fileDiff('new.txt', undefined, 'n\n')],
    conflicts: [],
  };
  readonly worktrees: WorktreeApi = {
    apply: async (runId): Promise<WorktreeState> => {
      this.actions.push(['apply', runId]);
      // As the queue does: the run has ended, its worktree field still changes.
      this.store.setState((s) => {
        const run = s.runs.get(runId)!;
        return { runs: s.runs.with(runId, { ...run, worktree: { ...run.worktree!, state: 'merged' } }) };
      });
      return 'merged';
    },
    drop: async () => true,
    keep: async () => true,
    diff: async () => undefined,
    review: async (runId) => {
      this.actions.push(['review', runId]);
      return this.review;
    },
    rerun: async () => false,
    leftovers: () => [],
    cleanLeftovers: async () => 0,
  };
}

const waiting: RunWorktree = {
  branch: 'arbor/s1/1',
  path: '/home/u/.arbor/worktrees/s1-1',
  state: 'waiting',
  files: ['a.txt', 'new.txt'],
  added: 2,
  removed: 1,
};

function world(worktree: RunWorktree) {
  const rt = new MergingRuntime();
  const root = addTestRun(rt, { task: 'plan' });
  const child = addTestRun(rt, { parent: root.id, alias: 'w1', kind: 'delegate', status: 'completed', patch: { worktree } });
  return { rt, child };
}

describe('/agents: reviewing a queued merge', () => {
  it('v shows the files, +/−, a clean conflict check and the diff; a applies from there', async () => {
    const { rt, child } = world(waiting);
    const pane = await mountPane(rt, { width: 100, maxRows: 30 });
    await pane.press(KEYS.DOWN);
    await waitFor(() => expect(pane.frame()).toContain('v view diff'));
    await pane.press('v');
    await waitFor(() => expect(pane.frame()).toContain('Conflict check: applies cleanly to the current tree.'));
    const lines = pane.lines();
    expect(lines.some((l) => l.includes('⇢ merge waiting: a.txt, new.txt +2 −1'))).toBe(true);
    expect(lines.some((l) => /^a\.txt {2}\+1 −1/.test(l))).toBe(true);
    expect(lines.some((l) => /^new\.txt {2}\+1 −0 \(created\)/.test(l))).toBe(true);
    expect(lines.some((l) => /@@ -1,3 \+1,3 @@/.test(l))).toBe(true);
    expect(lines.some((l) => /2 +-two$/.test(l.trimEnd()))).toBe(true);
    expect(lines.some((l) => /2 \+TWO$/.test(l.trimEnd()))).toBe(true);
    expect(rt.callsOf('review')).toEqual([[child.id]]);
    // The merge keys act on the reviewed entry; the pane goes back to the list.
    await pane.press('a');
    await waitFor(() => expect(pane.frame()).toContain('w1#1: changes merged'));
    expect(rt.callsOf('apply')).toEqual([[child.id]]);
    await waitFor(() => expect(pane.frame()).toContain('⎇ merged'));
  });

  it('a conflicting entry: the check names the files; Esc goes back to the list', async () => {
    const { rt } = world({ ...waiting, state: 'conflict', conflict: { files: ['a.txt'], with: 'w2#2' } });
    rt.review = { ...rt.review, conflicts: ['a.txt'] };
    const pane = await mountPane(rt, { width: 100, maxRows: 30 });
    await pane.press(KEYS.DOWN);
    await pane.press('v');
    await waitFor(() => expect(pane.frame()).toContain('Conflict check: conflicts with the current tree in a.txt.'));
    expect(pane.frame()).toContain("⚠ conflict in a.txt with w2#2's changes");
    await pane.press(KEYS.ESC);
    await waitFor(() => expect(pane.frame()).toContain('v view diff'));
    expect(rt.callsOf('apply')).toEqual([]);
  });

  it('v on a row with nothing queued says so', async () => {
    const { rt } = world({ ...waiting, state: 'merged' });
    const pane = await mountPane(rt, { width: 100, maxRows: 30 });
    await pane.press(KEYS.DOWN);
    await pane.press('v');
    await waitFor(() => expect(pane.frame()).toContain('w1#1 has no queued merge'));
    expect(rt.callsOf('review')).toEqual([]);
  });
});
