// Worktrees an earlier arbor process left behind (it crashed or was killed while a child
// worked): each worktree arbor makes has a manifest beside it ($ARBOR_HOME/worktrees/<name>.json);
// a manifest of another session is a leftover. Cleaning removes only what a manifest names,
// and only a folder under $ARBOR_HOME/worktrees on an arbor/ branch.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { WorktreeLeftover } from '../../model/worktree.js';
import { runGit } from './git.js';
import { BRANCH_PREFIX, type Manifest } from './queue.js';

function ours(dir: string, m: Manifest): boolean {
  const rel = relative(dir, m.path);
  return m.branch.startsWith(BRANCH_PREFIX) && rel !== '' && !rel.startsWith('..') && !rel.includes('/');
}

/** Manifests under `dir` from sessions other than `session`. */
export function findLeftovers(dir: string, session: string): (WorktreeLeftover & { manifest: string })[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: (WorktreeLeftover & { manifest: string })[] = [];
  for (const name of names) {
    try {
      const m = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Manifest;
      if (m.session === session || !ours(dir, m)) continue;
      out.push({ repo: m.repo, path: m.path, branch: m.branch, runName: m.runName, session: m.session, manifest: join(dir, name) });
    } catch {
      // Not a manifest of ours: left alone.
    }
  }
  return out;
}

export async function cleanLeftover(left: WorktreeLeftover & { manifest: string }): Promise<void> {
  if (existsSync(left.repo)) {
    await runGit(left.repo, ['worktree', 'remove', '--force', left.path]).catch(() => undefined);
    await runGit(left.repo, ['branch', '-D', '--quiet', left.branch]).catch(() => undefined);
    await runGit(left.repo, ['worktree', 'prune']).catch(() => undefined);
  }
  await rm(left.path, { recursive: true, force: true });
  await rm(left.manifest, { force: true });
}
