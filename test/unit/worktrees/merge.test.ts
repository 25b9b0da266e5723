// Isolated children end to end (issue #23) in real git repositories: each child works in
// its own worktree, its changes come back through the merge queue.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callsThenDone,
  delegateCall,
  delegateResults,
  lastToolResult,
  sequence,
  text,
  until,
  type DelegateFixture,
} from '../delegate/helpers.js';
import { A, git, isoConfig, isoFixture, leftovers, runsOf, sed, shell, tools, autoMergeFixture } from './helpers.js';

let fx: DelegateFixture | undefined;

describe('two parallel isolated children editing one file', () => {
  it('in different places: both merged, the file exact, every worktree and branch removed', async () => {
    fx = await autoMergeFixture(
      { parallel: ['w1', 'w2'], prompt: 'edit a.txt' },
      {
        w1: sequence(tools(shell('s1', sed('s/^one$/ONE/'))), text('w1 done')),
        w2: sequence(tools(shell('s2', sed('s/^seven$/SEVEN/'))), text('w2 done')),
      },
    );
    await fx.runtime.startTurn('go');
    expect(readFileSync(join(fx.workdir, 'a.txt'), 'utf8')).toBe('ONE\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n');
    const result = delegateResults(fx.runtime)[0].result!;
    expect(result.match(/\[worktree: changes merged \(1 file\)\]/g)).toHaveLength(2);
    for (const alias of ['w1', 'w2']) expect(runsOf(fx, alias)[0].worktree?.state).toBe('merged');
    // The card's entries carry the outcome (cards read display, never the model's text).
    const display = delegateResults(fx.runtime)[0].display;
    expect(display?.kind === 'delegate' && display.targets.map((t) => t.worktree)).toEqual([
      '[worktree: changes merged (1 file)]',
      '[worktree: changes merged (1 file)]',
    ]);
    expect(leftovers(fx)).toEqual({ branches: [], worktrees: [], dirs: [] });
    // The user's index, HEAD and stash are as they were.
    expect(git(fx.workdir, 'stash', 'list')).toBe('');
    expect(git(fx.workdir, 'diff', '--cached', '--name-only')).toBe('');
    expect(git(fx.workdir, 'log', '--oneline').trim().split('\n')).toHaveLength(1);
  });

  it('in the same lines: one merged, the other queued as a conflict naming the file and the run', async () => {
    fx = await isoFixture({
      config: isoConfig('merge = "auto"\nisolation = "worktree"'),
      agents: {
        main: callsThenDone(delegateCall({ parallel: ['w1', 'w2'], prompt: 'edit a.txt' })),
        w1: sequence(tools(shell('s1', sed('s/^three$/THREE-1/'))), text('w1 done')),
        // w2 makes its edit only once w1 is merged (its worktree was made before, from the
        // same base), so w1 is merged first.
        w2: async (_req, nth) => {
          if (nth > 0) return text('w2 done');
          await until(() => runsOf(fx!, 'w1')[0]?.worktree?.state === 'merged', 15000, 'w1 merged');
          return tools(shell('s2', sed('s/^three$/THREE-2/')));
        },
      },
    });
    await fx.runtime.startTurn('go');
    expect(readFileSync(join(fx.workdir, 'a.txt'), 'utf8')).toBe(A.replace('three', 'THREE-1'));
    const w1 = runsOf(fx, 'w1')[0];
    const w2 = runsOf(fx, 'w2')[0];
    expect(w1.worktree?.state).toBe('merged');
    expect(w2.worktree?.state).toBe('conflict');
    expect(w2.worktree?.conflict).toEqual({ files: ['a.txt'], with: `w1#${w1.number}` });
    const result = delegateResults(fx.runtime)[0].result!;
    expect(result).toContain(
      `[worktree: not merged — conflict in a.txt with w1#${w1.number}'s changes; branch ${w2.worktree!.branch} keeps them]`,
    );
    // The branch keeps w2's change.
    expect(git(fx.workdir, 'show', `${w2.worktree!.branch}:a.txt`)).toBe(A.replace('three', 'THREE-2'));
    expect(leftovers(fx).branches).toEqual([w2.worktree!.branch]);
  });
});

describe('a child sees its caller’s current state', () => {
  it('uncommitted and untracked (not ignored) files are in its worktree; the original is out of reach', async () => {
    fx = await autoMergeFixture(
      { agent: 'w1', prompt: 'look' },
      {
        w1: sequence(tools(shell('s1', 'cat a.txt new.txt; ls'), { id: 'r1', name: 'read_file', args: { path: 'secret.log' } }), (req) =>
          text(`seen: ${lastToolResult(req)}`),
        ),
      },
    );
    writeFileSync(join(fx.workdir, 'a.txt'), 'edited\n');
    writeFileSync(join(fx.workdir, 'new.txt'), 'untracked\n');
    writeFileSync(join(fx.workdir, '.gitignore'), '*.log\n');
    writeFileSync(join(fx.workdir, 'secret.log'), 'ignored\n');
    await fx.runtime.startTurn('go');
    const reqs = fx.requestsOf('w1');
    const body = JSON.stringify(reqs[reqs.length - 1].body);
    expect(body).toContain('edited\\nuntracked\\n');
    expect(body).not.toContain('secret.log\\n');
    expect(delegateResults(fx.runtime)[0].result).toMatch(/\[worktree: no changes\]$/);
    expect(leftovers(fx)).toEqual({ branches: [], worktrees: [], dirs: [] });
  });
});

describe('outside a git repository', () => {
  it('a child that needs a worktree is refused with the literal text', async () => {
    fx = await isoFixture({
      config: isoConfig(),
      files: false,
      agents: {
        main: callsThenDone(delegateCall({ agent: 'w1', prompt: 'x', isolation: 'worktree' })),
        w1: sequence(text('never')),
      },
    });
    await fx.runtime.startTurn('go');
    expect(delegateResults(fx.runtime)[0].result).toContain(`worktree isolation needs a git repository: ${fx.workdir} is not inside one`);
    expect(fx.requestsOf('w1')).toHaveLength(0);
  });
});
