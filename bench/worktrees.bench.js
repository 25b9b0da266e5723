// Worktree isolation (issue 23): 10 isolated children in a repository of 5,000 files. Time
// to create their 10 worktrees (a snapshot of the current state, then `git worktree add`)
// and to merge 10 clean entries (final state, three-way check, apply, worktree and branch
// removed), each beside the bare git commands doing the same job in the same run:
// `git worktree add` ×10, and `git diff` + `git apply` + `git worktree remove` + `git branch -D`
// ×10. Target: ≤ 1.5 × the bare commands.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { distUrl } from './lib/paths.js';
import { round } from './lib/stats.js';

export const name = 'worktrees';

const FILES = 5000;
const CHILDREN = 10;
const TARGET_RATIO = 1.5;

const ENV = {
  PATH: process.env.PATH,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@x',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@x',
};
const git = (cwd, ...args) => execFileSync('git', args, { cwd, env: { ...ENV, HOME: cwd }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

function makeRepo(root) {
  const dir = join(root, 'repo');
  mkdirSync(dir);
  git(dir, 'init', '-q');
  for (let d = 0; d < FILES / 100; d++) {
    mkdirSync(join(dir, `d${d}`));
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), `file ${d}/${f}\nline two\nline three\n`);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

/** Child i edits its own file: clean against every other child. */
const edit = (tree, i) => {
  const p = join(tree, `d${i}`, 'f0.txt');
  writeFileSync(p, readFileSync(p, 'utf8').replace('line two', `line two, child ${i}`));
};

/** Times `fn` (sync or async) in milliseconds. */
async function timed(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Both sides step by step, interleaved (bare, then arbor, per child), so a shared
 * machine's load drifts over both alike. */
async function measure(repo, root, home) {
  const { WorktreeQueue } = await import(distUrl('runtime/worktrees/queue.js'));
  const { createRuntimeStore } = await import(distUrl('runtime/store.js'));
  const queue = new WorktreeQueue({ home, store: createRuntimeStore('benchbench-0000'), mergeMode: () => 'auto' });
  const runs = Array.from({ length: CHILDREN }, (_, i) => ({
    id: `run-${i}`,
    alias: 'w',
    kind: 'delegate',
    number: i + 1,
    shortId: `run-${i}`,
  }));
  const barePaths = runs.map((_, i) => join(root, `bare-${i}`));
  const t = { ours: { create: 0, merge: 0 }, bare: { create: 0, merge: 0 } };
  const places = [];
  for (let i = 0; i < CHILDREN; i++) {
    t.bare.create += await timed(() => git(repo, 'worktree', 'add', '--quiet', '-b', `bare/${i}`, barePaths[i], 'HEAD'));
    t.ours.create += await timed(async () => places.push(await queue.create(runs[i], repo, undefined)));
  }
  places.forEach((p, i) => edit(p.top, i));
  barePaths.forEach((p, i) => edit(p, i + CHILDREN));
  let merged = 0;
  for (let i = 0; i < CHILDREN; i++) {
    t.bare.merge += await timed(() => {
      const patch = join(root, `bare-${i}.patch`);
      writeFileSync(patch, git(barePaths[i], 'diff', '--binary', 'HEAD'));
      git(repo, 'apply', patch);
      git(repo, 'worktree', 'remove', '--force', barePaths[i]);
      git(repo, 'branch', '-D', '--quiet', `bare/${i}`);
    });
    t.ours.merge += await timed(async () => {
      if ((await queue.finish(runs[i].id, true)) === '[worktree: changes merged (1 file)]') merged += 1;
    });
  }
  return { ...t, merged };
}

export async function run() {
  const root = mkdtempSync(join(tmpdir(), 'arbor-bench-wt-'));
  try {
    const repo = makeRepo(root);
    const home = join(root, 'home');
    mkdirSync(home, { mode: 0o700 });
    // Warm the file cache once, so neither side pays the first read of the tree.
    git(repo, 'status', '--porcelain');
    const m = await measure(repo, root, home);
    const rows = [];
    const row = (metric, mine, base) => {
      const ratio = mine / base;
      rows.push({ metric: `${metric} (arbor)`, value: round(mine, 0), unit: 'ms' });
      rows.push({ metric: `${metric} (bare git)`, value: round(base, 0), unit: 'ms' });
      rows.push({
        metric: `${metric}: arbor / bare`,
        value: round(ratio, 2),
        unit: '×',
        target: `≤ ${TARGET_RATIO}`,
        pass: ratio <= TARGET_RATIO,
      });
    };
    row(`create ${CHILDREN} worktrees, ${FILES} files`, m.ours.create, m.bare.create);
    row(`merge ${CHILDREN} clean entries`, m.ours.merge, m.bare.merge);
    rows.push({ metric: 'entries merged', value: m.merged, unit: `of ${CHILDREN}`, target: `${CHILDREN}`, pass: m.merged === CHILDREN });
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
