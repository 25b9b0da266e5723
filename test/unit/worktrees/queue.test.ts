// The merge queue's operator side and the edges of isolation (issue #23): ask (apply,
// skip), re-run on the new tree, nested isolation, a killed child's worktree kept, no path
// outside the worktree writable, and leftovers of a process that died.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { hasToolResults } from '../../support/loopbackModel.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntimeStore } from '../../../src/runtime/store.js';
import { WorktreeQueue } from '../../../src/runtime/worktrees/queue.js';
import {
  callsThenDone,
  delegateCall,
  delegateResults,
  firstUser,
  lastToolResult,
  toolItems,
  sequence,
  text,
  until,
  type DelegateFixture,
} from '../delegate/helpers.js';
import { A, fail500, git, isoConfig, isoFixture, leftovers, runsOf, sed, shell, tools, autoMergeFixture } from './helpers.js';
import type { Run } from '../../../src/model/run.js';
import { WORKTREE_MANUAL, WORKTREE_NO_CHANGES, WORKTREE_UNFINISHED } from '../../../src/tools/worktreeNotes.js';

let fx: DelegateFixture | undefined;

const fileA = () => readFileSync(join(fx!.workdir, 'a.txt'), 'utf8');

async function askOne() {
  fx = await isoFixture({
    config: isoConfig('merge = "ask"'),
    agents: {
      main: callsThenDone(delegateCall({ agent: 'w1', prompt: 'edit', isolation: 'worktree' })),
      w1: sequence(tools(shell('s1', `${sed('s/^two$/TWO/')} && printf 'n\\n' > new.txt`)), text('w1 done')),
    },
  });
  await fx.runtime.startTurn('go');
  const w1 = runsOf(fx, 'w1')[0];
  expect(w1.worktree).toMatchObject({ state: 'waiting', files: ['a.txt', 'new.txt'], added: 2, removed: 1 });
  expect(delegateResults(fx.runtime)[0].result).toMatch(/\n\[worktree: waiting for the operator to merge \(2 files\)\]$/);
  // Nothing reached the checkout yet.
  expect(fileA()).toBe(A);
  expect(existsSync(join(fx.workdir, 'new.txt'))).toBe(false);
  return w1;
}

describe('merge = "ask"', () => {
  it('holds the entry; apply merges it and removes its worktree and branch', async () => {
    const w1 = await askOne();
    expect(await fx!.runtime.worktrees!.diff(w1.id)).toContain('-two\n+TWO');
    expect(await fx!.runtime.worktrees!.apply(w1.id)).toBe('merged');
    expect(fileA()).toBe(A.replace('two', 'TWO'));
    expect(readFileSync(join(fx!.workdir, 'new.txt'), 'utf8')).toBe('n\n');
    expect(leftovers(fx!)).toEqual({ branches: [], worktrees: [], dirs: [] });
  });

  it("review: each file's diff and the conflict check against the tree as it is now", async () => {
    const w1 = await askOne();
    const clean = await fx!.runtime.worktrees!.review(w1.id);
    expect(clean?.conflicts).toEqual([]);
    expect(clean?.files.map((f) => [f.path, f.added, f.removed, f.created === true])).toEqual([
      ['a.txt', 1, 1, false],
      ['new.txt', 1, 0, true],
    ]);
    expect(clean?.files[0].hunks[0].lines).toContain('-two');
    expect(clean?.files[0].hunks[0].lines).toContain('+TWO');
    // The operator edits the same line meanwhile: the check says so, nothing is applied.
    writeFileSync(join(fx!.workdir, 'a.txt'), A.replace('two', 'mine'));
    expect((await fx!.runtime.worktrees!.review(w1.id))?.conflicts).toEqual(['a.txt']);
    expect(fileA()).toBe(A.replace('two', 'mine'));
    expect(runsOf(fx!, 'w1')[0].worktree?.state).toBe('waiting');
  });

  it('skip drops it: the tree untouched, worktree and branch removed', async () => {
    const w1 = await askOne();
    expect(await fx!.runtime.worktrees!.drop(w1.id)).toBe(true);
    expect(runsOf(fx!, 'w1')[0].worktree?.state).toBe('dropped');
    expect(fileA()).toBe(A);
    expect(leftovers(fx!)).toEqual({ branches: [], worktrees: [], dirs: [] });
  });
});

describe('a conflict re-run on the new tree', () => {
  it('a new child with the same task starts from the merged state and merges cleanly', async () => {
    let w2Runs = 0;
    fx = await autoMergeFixture(
      { parallel: ['w1', 'w2'], prompt: 'edit' },
      {
        w1: sequence(tools(shell('s1', sed('s/^three$/THREE-1/'))), text('w1 done')),
        w2: async (req) => {
          if (lastToolResult(req) !== '' && JSON.stringify(req.body).includes('"tool"')) return text('w2 done');
          w2Runs += 1;
          // First run: the same line as w1, edited once w1 is merged (a conflict); the re-run
          // sees w1's line and builds on it.
          if (w2Runs > 1) return tools(shell('s3', sed('s/^THREE-1$/THREE-1+2/')));
          await until(() => runsOf(fx!, 'w1')[0]?.worktree?.state === 'merged', 15000, 'w1 merged');
          return tools(shell('s2', sed('s/^three$/THREE-2/')));
        },
      },
    );
    await fx.runtime.startTurn('go');
    const first = runsOf(fx, 'w2')[0];
    expect(first.worktree?.state).toBe('conflict');
    expect(await fx.runtime.worktrees!.rerun(first.id)).toBe(true);
    await until(() => runsOf(fx!, 'w2').some((r) => r.id !== first.id && r.worktree?.state === 'merged'), 15000, 're-run merged');
    expect(fileA()).toBe(A.replace('three', 'THREE-1+2'));
    expect(runsOf(fx, 'w2')[0].worktree?.state).toBe('dropped');
    expect(leftovers(fx)).toEqual({ branches: [], worktrees: [], dirs: [] });
  });
});

describe('nested isolation', () => {
  it('a child of an isolated child inherits its worktree, or gets its own based on it', async () => {
    fx = await autoMergeFixture(
      { agent: 'lead', prompt: 'lead it' },
      {
        lead: sequence(
          tools(shell('l1', sed('s/^one$/ONE/'))),
          // The inheriting child works in lead's worktree; the isolated one gets its own,
          // based on lead's state (it sees ONE).
          { kind: 'tools', calls: [{ id: 'd2', name: 'delegate', args: { agent: 'w1', prompt: 'inherit' } }] },
          { kind: 'tools', calls: [{ id: 'd3', name: 'delegate', args: { agent: 'w1', prompt: 'own', isolation: 'worktree' } }] },
          text('lead done'),
        ),
        w1: (req) =>
          JSON.stringify(req.body).includes('"tool"')
            ? text('w1 done')
            : JSON.stringify(req.body).includes('inherit')
              ? tools(shell('w1a', sed('s/^four$/FOUR/')))
              : tools(shell('w1b', `grep -q ONE a.txt && ${sed('s/^seven$/SEVEN/')}`)),
      },
    );
    await fx.runtime.startTurn('go');
    const lead = runsOf(fx, 'lead')[0];
    const [inherit, own] = runsOf(fx, 'w1');
    expect(inherit.worktree).toMatchObject({ inherited: true, branch: lead.worktree!.branch });
    expect(own.worktree?.state).toBe('merged');
    expect(own.worktree?.branch).not.toBe(lead.worktree!.branch);
    expect(lead.worktree?.state).toBe('merged');
    expect(fileA()).toBe('ONE\ntwo\nthree\nFOUR\nfive\nsix\nSEVEN\n');
    expect(leftovers(fx)).toEqual({ branches: [], worktrees: [], dirs: [] });
  });
});

describe('a killed isolated child', () => {
  it('keeps its worktree and branch, never merged', async () => {
    fx = await autoMergeFixture(
      { agent: 'w1', prompt: 'slow' },
      {
        w1: sequence(tools(shell('s1', `${sed('s/^one$/ONE/')} && sleep 30`)), text('never')),
      },
    );
    const turn = fx.runtime.startTurn('go');
    await until(() => runsOf(fx!, 'w1')[0]?.lastTool?.name === 'shell', 15000, 'w1 runs its command');
    await until(
      () => {
        const wt = runsOf(fx!, 'w1')[0].worktree;
        return !!wt && readFileSync(join(wt.path, 'a.txt'), 'utf8').startsWith('ONE');
      },
      15000,
      'w1 edited its worktree',
    );
    const w1 = runsOf(fx, 'w1')[0];
    fx.runtime.kill(w1.id);
    await turn;
    await until(() => runsOf(fx!, 'w1')[0].worktree?.state === 'kept', 15000, 'kept');
    const kept = runsOf(fx, 'w1')[0] as Run;
    expect(kept.status).toBe('killed');
    expect(fileA()).toBe(A);
    // The parent model reads where the unfinished child's changes are kept.
    expect(lastLine(delegateResults(fx.runtime)[0].result)).toBe(WORKTREE_UNFINISHED(kept.worktree!.branch));
    expect(git(fx.workdir, 'show', `${kept.worktree!.branch}:a.txt`)).toBe(A.replace('one', 'ONE'));
    expect(leftovers(fx).branches).toEqual([kept.worktree!.branch]);
  });
});

const lastLine = (text: string | undefined) => (text ?? '').split('\n').pop();
// An agent whose active time runs out after 1.5 s.
const quick = `
[runtime_profiles.quick]
agentic = true
agentic_timeout_secs = 1.5
[agents.slow]
provider = "fake"
system_prompt = "You are slow."
risk_profile = "trusted"
runtime_profile = "quick"
`;

describe('a failed or timed-out isolated child', () => {
  it('a failed child: its worktree and branch kept, never merged, the parent told where', async () => {
    fx = await autoMergeFixture(
      { agent: 'w1', prompt: 'edit' },
      {
        w1: sequence(tools(shell('s1', sed('s/^one$/ONE/'))), fail500),
      },
    );
    await fx.runtime.startTurn('go');
    const w1 = runsOf(fx, 'w1')[0];
    expect(w1.status).toBe('failed');
    expect(w1.worktree?.state).toBe('kept');
    const branch = w1.worktree!.branch;
    expect(branch).toMatch(/^arbor\/\w+\/\d+$/);
    expect(delegateResults(fx.runtime)[0].result).toBe(`Agent 'w1' failed: ${w1.error}\n${WORKTREE_UNFINISHED(branch)}`);
    expect(fileA()).toBe(A);
    expect(git(fx.workdir, 'show', `${branch}:a.txt`)).toBe(A.replace('one', 'ONE'));
    expect(leftovers(fx).branches).toEqual([branch]);
    expect(existsSync(w1.worktree!.path)).toBe(true);
  });

  it('a timed-out child: kept, never merged, the parent told where', async () => {
    fx = await isoFixture({
      config: isoConfig('merge = "auto"', quick),
      agents: {
        main: callsThenDone(delegateCall({ agent: 'slow', prompt: 'edit', isolation: 'worktree' })),
        slow: sequence(tools(shell('s1', `${sed('s/^one$/ONE/')} && sleep 30`)), text('never')),
      },
    });
    await fx.runtime.startTurn('go');
    const slow = runsOf(fx, 'slow')[0];
    expect(slow.status).toBe('timed_out');
    expect(slow.worktree?.state).toBe('kept');
    const branch = slow.worktree!.branch;
    expect(delegateResults(fx.runtime)[0].result).toBe(`Agent 'slow' timed out after 1.5s\n${WORKTREE_UNFINISHED(branch)}`);
    expect(fileA()).toBe(A);
    expect(git(fx.workdir, 'show', `${branch}:a.txt`)).toBe(A.replace('one', 'ONE'));
    expect(leftovers(fx).branches).toEqual([branch]);
  });

  it("spawn_subagent: a failed isolated subagent's result says where its changes are kept", async () => {
    fx = await isoFixture({
      config: isoConfig('merge = "auto"'),
      agents: {
        // The subagent is main too: its task tells it apart from the parent.
        main: (req) => {
          const child = firstUser(req).startsWith('edit job');
          if (!child)
            return hasToolResults(req.body)
              ? text('done')
              : tools({ id: 'sp', name: 'spawn_subagent', args: { prompt: 'edit job', isolation: 'worktree' } });
          return hasToolResults(req.body) ? fail500() : tools(shell('s1', sed('s/^one$/ONE/')));
        },
      },
    });
    await fx.runtime.startTurn('go');
    const sub = runsOf(fx, 'main').find((r) => r.kind === 'subagent')!;
    expect(sub.status).toBe('failed');
    const branch = sub.worktree!.branch;
    const [item] = toolItems(fx.runtime.store.getState().transcript, 'spawn_subagent');
    expect(item.status).toBe('error');
    expect(lastLine(item.result)).toBe(WORKTREE_UNFINISHED(branch));
    // The card reads the note from the display, beside the error.
    expect(item.display).toEqual({ kind: 'spawn', error: `subagent run failed: ${sub.error}`, worktree: WORKTREE_UNFINISHED(branch) });
    expect(fileA()).toBe(A);
    expect(git(fx.workdir, 'show', `${branch}:a.txt`)).toBe(A.replace('one', 'ONE'));
  });

  it('a failed child that changed nothing: [worktree: no changes]', async () => {
    fx = await isoFixture({
      config: isoConfig('merge = "auto"'),
      agents: { main: callsThenDone(delegateCall({ agent: 'w1', prompt: 'edit', isolation: 'worktree' })), w1: fail500 },
    });
    await fx.runtime.startTurn('go');
    const w1 = runsOf(fx, 'w1')[0];
    expect(w1.status).toBe('failed');
    expect(delegateResults(fx.runtime)[0].result).toBe(`Agent 'w1' failed: ${w1.error}\n${WORKTREE_NO_CHANGES}`);
    expect(fileA()).toBe(A);
  });
});

describe('merge = "manual"', () => {
  it('only keeps the branch; the parent reads the manual note', async () => {
    fx = await isoFixture({
      config: isoConfig('merge = "manual"'),
      agents: {
        main: callsThenDone(delegateCall({ agent: 'w1', prompt: 'edit', isolation: 'worktree' })),
        w1: sequence(tools(shell('s1', sed('s/^two$/TWO/'))), text('w1 done')),
      },
    });
    await fx.runtime.startTurn('go');
    const w1 = runsOf(fx, 'w1')[0];
    const branch = w1.worktree!.branch;
    expect(w1.worktree).toMatchObject({ state: 'kept', files: ['a.txt'], added: 1, removed: 1 });
    expect(lastLine(delegateResults(fx.runtime)[0].result)).toBe(WORKTREE_MANUAL(branch));
    expect(WORKTREE_MANUAL(branch)).toBe(`[worktree: not merged — merge = manual; branch ${branch} keeps them]`);
    expect(fileA()).toBe(A);
    expect(git(fx.workdir, 'show', `${branch}:a.txt`)).toBe(A.replace('two', 'TWO'));
  });
});

describe('no path outside the worktree is writable by an isolated child', () => {
  it('absolute paths into the checkout, .. escapes and symlinks out are refused', async () => {
    let workdir = '';
    fx = await autoMergeFixture(
      { agent: 'w1', prompt: 'escape' },
      {
        w1: sequence(
          () =>
            tools(
              { id: 'e1', name: 'write_file', args: { path: join(workdir, 'a.txt'), content: 'abs\n' } },
              { id: 'e2', name: 'write_file', args: { path: '../escape.txt', content: 'dotdot\n' } },
              { id: 'e3', name: 'read_file', args: { path: join(workdir, 'a.txt') } },
              shell('e4', `ln -s '${workdir}' link`),
              { id: 'e5', name: 'write_file', args: { path: 'link/a.txt', content: 'link\n' } },
              { id: 'e6', name: 'write_file', args: { path: 'inside.txt', content: 'ok\n' } },
            ),
          text('w1 done'),
        ),
      },
    );
    workdir = fx.workdir;
    await fx.runtime.startTurn('go');
    const reqs = fx.requestsOf('w1');
    const results = JSON.stringify(reqs[reqs.length - 1].body);
    for (const refusal of ['it is outside the allowed roots', "'..' leads outside the allowed roots", 'resolves through a symlink']) {
      expect(results).toContain(refusal);
    }
    expect(fileA()).toBe(A);
    // The in-tree write came back through the merge (the link is the child's own file too).
    expect(readFileSync(join(fx.workdir, 'inside.txt'), 'utf8')).toBe('ok\n');
  });
});

describe('leftovers of a process that died', () => {
  it('are found at the next start and cleaned (worktree, branch, prune)', async () => {
    fx = await isoFixture({ config: isoConfig(), agents: { main: sequence(text('hi')) } });
    // An earlier session made a worktree and died before finishing it.
    const earlier = new WorktreeQueue({ home: fx.home, store: createRuntimeStore('deadbeef-0000'), mergeMode: () => 'auto' });
    const run = { id: 'r-1', alias: 'w1', kind: 'delegate', number: 1, shortId: 'r-1' } as Run;
    const place = await earlier.create(run, fx.workdir, undefined);
    symlinkSync('/nonexistent', join(place.top, 'dangling'));
    const next = await isoFixture({ config: isoConfig(), agents: { main: sequence(text('hi')) }, home: fx.home, files: false });
    try {
      // Same home, a new session: the other session's worktree is a leftover.
      const found = next.runtime.worktrees!.leftovers();
      expect(found).toEqual([{ repo: fx.workdir, path: place.top, branch: 'arbor/deadbeef/1', runName: 'w1#1', session: 'deadbeef-0000' }]);
      expect(await next.runtime.worktrees!.cleanLeftovers()).toBe(1);
      expect(leftovers(fx)).toEqual({ branches: [], worktrees: [], dirs: [] });
      expect(git(fx.workdir, 'worktree', 'list', '--porcelain')).not.toContain('prunable');
    } finally {
      await next.cleanup();
    }
  });
});
