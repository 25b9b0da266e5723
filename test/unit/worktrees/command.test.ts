// /worktrees over a real session (issue #23): every isolated child's worktree with its run,
// branch and status (running, waiting, kept, merged, conflict, no changes, skipped), and the
// apply / skip / keep actions on the merge queue, in a real repository.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runName } from '../../../src/model/run.js';
import type { CommandContext } from '../../../src/ui/commands/registry.js';
import { worktreesCommand } from '../../../src/ui/commands/worktrees.js';
import { agent, callsThenDone, delegateCall, sequence, text, toml, until, type DelegateFixture } from '../delegate/helpers.js';
import { fail500, isoFixture, leftovers, runsOf, sed, shell, tools, worker } from './helpers.js';

let fx: DelegateFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const A = 'one\ntwo\nthree\nfour\n';

describe('/worktrees', () => {
  it('lists each worktree with its status and applies, skips and keeps queued entries', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    fx = await isoFixture({
      config: (url) =>
        toml(
          url,
          agent('main', 'risk_profile = "trusted"\nruntime_profile = "agentic"\ndelegates = ["w1", "w2", "w3", "w4"]') +
            ['w1', 'w2', 'w3', 'w4'].map((a) => worker(a)).join('') +
            '\n[delegation]\nsubagent_approvals = "allow"\nmerge = "ask"\n',
        ),
      files: { 'a.txt': A },
      agents: {
        main: callsThenDone(delegateCall({ parallel: ['w1', 'w2', 'w3', 'w4'], prompt: 'edit', isolation: 'worktree' })),
        w1: sequence(tools(shell('s1', sed('s/^three$/THREE-1/'))), text('w1 done')),
        // w2 changes nothing, and holds until the test has listed it running.
        w2: async (_req, nth) => {
          if (nth === 0) await gate;
          return text('w2 done');
        },
        // w3 edits, then fails: kept, never merged.
        w3: sequence(tools(shell('s3', sed('s/^one$/ONE/'))), fail500),
        // w4 edits the line w1 edits.
        w4: sequence(tools(shell('s4', sed('s/^three$/THREE-4/'))), text('w4 done')),
      },
    });
    const printed: string[] = [];
    const ctx = { runtime: fx.runtime, print: (t: string) => printed.push(t) } as unknown as CommandContext;
    const run = (alias: string) => runsOf(fx!, alias)[0];
    const name = (alias: string) => runName(run(alias));
    const branch = (alias: string) => run(alias).worktree!.branch;
    const list = async () => {
      await worktreesCommand.run([], ctx);
      return printed.at(-1)!.split('\n');
    };

    const turn = fx.runtime.startTurn('go');
    await until(
      () => ['w1', 'w4'].every((a) => run(a)?.worktree?.state === 'waiting') && run('w3')?.worktree?.state === 'kept',
      15000,
      'w1 and w4 queued, w3 kept',
    );
    expect(run('w2').worktree?.state).toBe('running');
    expect(await list()).toEqual([
      'Worktrees of this session:',
      `  ${name('w1')}  ${branch('w1')}  waiting  (1 file +1 −1)`,
      `  ${name('w2')}  ${branch('w2')}  running`,
      `  ${name('w3')}  ${branch('w3')}  kept  (1 file +1 −1)`,
      `  ${name('w4')}  ${branch('w4')}  waiting  (1 file +1 −1)`,
    ]);
    // A running child's worktree is not the operator's yet.
    await worktreesCommand.run(['apply', name('w2')], ctx);
    expect(printed.at(-1)).toBe(`${name('w2')}: still running; wait for it to finish.`);
    release();
    await turn;

    await worktreesCommand.run(['apply', name('w1')], ctx);
    expect(printed.at(-1)).toBe(`${name('w1')}: changes merged.`);
    expect(readFileSync(join(fx.workdir, 'a.txt'), 'utf8')).toBe(A.replace('three', 'THREE-1'));
    // w4's entry is checked again against the tree as it is now: a conflict, nothing applied.
    await worktreesCommand.run(['apply', name('w4')], ctx);
    expect(printed.at(-1)).toBe(`${name('w4')}: not applied — conflict in a.txt with ${name('w1')}'s changes.`);
    expect(readFileSync(join(fx.workdir, 'a.txt'), 'utf8')).toBe(A.replace('three', 'THREE-1'));
    const w4Branch = branch('w4');
    expect(await list()).toEqual([
      'Worktrees of this session:',
      `  ${name('w1')}  ${branch('w1')}  merged  (1 file +1 −1)`,
      `  ${name('w2')}  ${branch('w2')}  no changes`,
      `  ${name('w3')}  ${branch('w3')}  kept  (1 file +1 −1)`,
      `  ${name('w4')}  ${w4Branch}  conflict  (conflict in a.txt with ${name('w1')}'s changes)`,
    ]);

    await worktreesCommand.run(['keep', name('w4')], ctx);
    expect(printed.at(-1)).toBe(`${name('w4')}: branch ${w4Branch} kept.`);
    await worktreesCommand.run(['skip', name('w3')], ctx);
    expect(printed.at(-1)).toBe(`${name('w3')}: skipped; its worktree and branch are removed.`);
    await worktreesCommand.run(['apply', 'nosuch'], ctx);
    expect(printed.at(-1)).toBe("No isolated run 'nosuch' in this session.");
    // Only the kept branch is left.
    expect(leftovers(fx).branches).toEqual([w4Branch]);
    expect(readFileSync(join(fx.workdir, 'a.txt'), 'utf8')).toBe(A.replace('three', 'THREE-1'));
  });
});
