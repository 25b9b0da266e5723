// A work tree's CURRENT state as git objects, without touching what the user owns: the
// user's index is copied to a private one (so its stat cache spares re-hashing every file),
// `git add -A` records tracked changes and untracked-not-ignored files there, and
// write-tree / commit-tree make objects. HEAD, the index, the stash list and the refs stay
// as they were.
import { randomUUID } from 'node:crypto';
import { copyFile, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { gitText } from './git.js';

async function headOf(top: string): Promise<string | undefined> {
  try {
    return (await gitText(top, ['rev-parse', '--verify', '-q', 'HEAD'])) || undefined;
  } catch {
    return undefined;
  }
}

/** The tree object of `top`'s work tree as it is now (ignored files left out). */
export async function stateTree(top: string): Promise<string> {
  const index = join(tmpdir(), `arbor-index-${randomUUID()}`);
  try {
    const own = await gitText(top, ['rev-parse', '--git-path', 'index']);
    const ownPath = isAbsolute(own) ? own : join(top, own);
    try {
      await copyFile(ownPath, index);
      // The copy keeps the index's own time: git's racy-entry check compares file times with
      // it, and a file edited in the same second as the index was written (same size) would
      // otherwise pass for unchanged.
      const st = await stat(ownPath);
      await utimes(index, st.atime, st.mtime);
    } catch {
      // No index yet (a fresh repository): start from HEAD, if there is one.
      if (await headOf(top)) await gitText(top, ['read-tree', 'HEAD'], { indexFile: index });
    }
    await gitText(top, ['add', '-A', '--', '.'], { indexFile: index });
    return await gitText(top, ['write-tree'], { indexFile: index });
  } finally {
    await rm(index, { force: true });
  }
}

/** A commit of `top`'s current state whose parent is HEAD (none in an empty repository). */
export async function snapshotCommit(top: string, message: string): Promise<string> {
  const [head, tree] = await Promise.all([headOf(top), stateTree(top)]);
  return gitText(top, ['commit-tree', tree, ...(head ? ['-p', head] : []), '-m', message]);
}
