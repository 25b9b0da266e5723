// arbor never touches a worktree or branch it did not create (issue #23): the user's own
// worktree, a branch of theirs under arbor/, a folder and a forged manifest in
// $ARBOR_HOME/worktrees all survive an isolated child's merge and the next start's
// leftover clean-up, while everything arbor made is gone.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sequence, text, type DelegateFixture } from '../delegate/helpers.js';
import { git, isoConfig, isoFixture, leftovers, runsOf, shell, tempDirForTest, tools, autoMergeFixture } from './helpers.js';

let fx: DelegateFixture | undefined;

describe('what arbor did not create', () => {
  it("the user's worktree and branches, a stray folder and a forged manifest survive a merge and the leftover clean-up", async () => {
    fx = await autoMergeFixture(
      { agent: 'w1', prompt: 'edit' },
      {
        w1: sequence(tools(shell('s1', "sed -i 's/^one$/ONE/' a.txt")), text('w1 done')),
      },
    );
    const tree = tempDirForTest('arbor-user-wt-');
    rmSync(tree, { recursive: true });
    // The user's own: a worktree on their branch, a branch named like arbor's.
    git(fx.workdir, 'worktree', 'add', '--quiet', '-b', 'feature', tree);
    writeFileSync(join(tree, 'wip.txt'), 'work in progress\n');
    git(fx.workdir, 'branch', 'arbor/mine');
    const dir = join(fx.home, 'worktrees');
    mkdirSync(join(dir, 'stray'), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'stray', 'keep.txt'), 'keep\n');
    // Manifests of another session that name what arbor never made: a folder outside
    // $ARBOR_HOME/worktrees, and one inside it on a branch that is not arbor's.
    const forged = (name: string, path: string, branch: string) =>
      writeFileSync(
        join(dir, `${name}.json`),
        JSON.stringify({ repo: fx!.workdir, path, branch, session: 'other-session', runId: 'x', runName: 'w1#9', createdAt: 0 }),
      );
    forged('outside', tree, 'arbor/mine');
    forged('notours', join(dir, 'stray'), 'feature');

    await fx.runtime.startTurn('go');
    expect(runsOf(fx, 'w1')[0].worktree?.state).toBe('merged');

    const next = await isoFixture({ config: isoConfig(), agents: { main: sequence(text('hi')) }, home: fx.home, files: false });
    try {
      expect(next.runtime.worktrees!.leftovers()).toEqual([]);
      expect(await next.runtime.worktrees!.cleanLeftovers()).toBe(0);
    } finally {
      await next.cleanup();
    }
    // arbor's own worktree and branch are gone; the user's are as they were.
    expect(leftovers(fx).branches).toEqual(['arbor/mine']);
    expect(leftovers(fx).worktrees).toEqual([tree]);
    expect(git(fx.workdir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/feature')).toBe('feature\n');
    expect(readFileSync(join(tree, 'wip.txt'), 'utf8')).toBe('work in progress\n');
    expect(readFileSync(join(dir, 'stray', 'keep.txt'), 'utf8')).toBe('keep\n');
    expect(existsSync(join(dir, 'outside.json')) && existsSync(join(dir, 'notours.json'))).toBe(true);
  });
});
