// The merge queue's check and apply: every file an entry changed, from its base to its final
// state, is compared three ways with the caller's tree as it is now (the caller's own edits
// and earlier merged children included). All files are checked before any is written, so a
// conflicting entry is never applied half-way.
import { chmod, lstat, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isInside } from '../../tools/pathGuard.js';
import { runGit } from './git.js';

export interface Change {
  path: string;
  baseBlob?: string;
  childBlob?: string;
  childMode?: string;
}

export interface ChangeSet {
  changes: Change[];
  added: number;
  removed: number;
}

const ZERO = /^0+$/;

/** What changed from tree `base` to tree `final` (no rename detection: each path by itself). */
export async function changesBetween(repo: string, base: string, final: string): Promise<ChangeSet> {
  const raw = (await runGit(repo, ['diff-tree', '-r', '-z', '--no-renames', base, final])).stdout;
  const parts = raw.split('\0');
  const changes: Change[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i].replace(/^:/, '').split(' ');
    if (meta.length < 5) continue;
    const [, dstMode, src, dst] = meta;
    changes.push({
      path: parts[i + 1],
      baseBlob: ZERO.test(src) ? undefined : src,
      childBlob: ZERO.test(dst) ? undefined : dst,
      childMode: ZERO.test(dst) ? undefined : dstMode,
    });
  }
  let added = 0;
  let removed = 0;
  if (changes.length > 0) {
    const numstat = (await runGit(repo, ['diff', '--numstat', '--no-renames', base, final])).stdout;
    for (const line of numstat.split('\n')) {
      const [a, r] = line.split('\t');
      if (/^\d+$/.test(a ?? '')) added += Number(a);
      if (/^\d+$/.test(r ?? '')) removed += Number(r);
    }
  }
  return { changes, added, removed };
}

/** The unified diff of an entry, for the operator to read. */
export async function diffBetween(repo: string, base: string, final: string): Promise<string> {
  return (await runGit(repo, ['diff', '--no-renames', '--no-color', base, final])).stdout;
}

type Plan = { path: string; write?: Buffer; mode?: string; remove?: boolean };

export type CheckResult = { clean: true; plans: Plan[] } | { clean: false; conflicts: string[] };

async function blob(repo: string, id: string | undefined): Promise<Buffer | undefined> {
  if (!id) return undefined;
  return (await runGit(repo, ['cat-file', 'blob', id])).buffer;
}

async function current(path: string): Promise<Buffer | undefined | 'other'> {
  try {
    const st = await lstat(path);
    if (st.isSymbolicLink() || !st.isFile()) return 'other';
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return 'other';
  }
}

const same = (a: Buffer | undefined, b: Buffer | undefined) => (a === undefined ? b === undefined : b !== undefined && a.equals(b));
const binary = (b: Buffer) => b.subarray(0, 8000).includes(0);

async function mergeFile(cur: Buffer, base: Buffer, other: Buffer): Promise<Buffer | undefined> {
  if (binary(cur) || binary(base) || binary(other)) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'arbor-merge-'));
  try {
    const [c, b, o] = ['current', 'base', 'other'].map((n) => join(dir, n));
    await Promise.all([writeFile(c, cur), writeFile(b, base), writeFile(o, other)]);
    const okCodes = Array.from({ length: 127 }, (_, i) => i + 1);
    const result = await runGit(dir, ['merge-file', '-p', '-q', c, b, o], { okCodes });
    return result.code === 0 ? result.buffer : undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One file: what to write into the caller's tree, nothing, or a conflict (undefined). */
async function planFile(repo: string, top: string, change: Change): Promise<Plan | null | undefined> {
  const mode = change.childMode;
  if (mode === '160000') return undefined; // a submodule pointer: not ours to merge
  const [base, child, cur] = await Promise.all([
    blob(repo, change.baseBlob),
    blob(repo, change.childBlob),
    current(join(top, change.path)),
  ]);
  // A link or a folder where the child has a file: not merged by guesswork.
  if (cur === 'other') return undefined;
  if (same(cur, child)) return null;
  const take = (content: Buffer | undefined): Plan =>
    content === undefined ? { path: change.path, remove: true } : { path: change.path, write: content, mode };
  if (same(cur, base)) return take(child);
  if (cur === undefined || base === undefined || child === undefined || mode === '120000') return undefined;
  const merged = await mergeFile(cur, base, child);
  return merged ? take(merged) : undefined;
}

/** The three-way check of every changed file against the caller's tree at `top`. */
export async function checkChanges(repo: string, top: string, changes: Change[]): Promise<CheckResult> {
  const plans: Plan[] = [];
  const conflicts: string[] = [];
  for (const change of changes) {
    const plan = await planFile(repo, top, change);
    if (plan === undefined) conflicts.push(change.path);
    else if (plan) plans.push(plan);
  }
  return conflicts.length > 0 ? { clean: false, conflicts } : { clean: true, plans };
}

/** Writes a clean check's plans: removals first (a link replaced by a folder), and never
 * through a folder that leads outside the caller's tree. */
export async function applyPlans(top: string, plans: Plan[]): Promise<void> {
  const realTop = await realpath(top);
  for (const p of plans.filter((x) => x.remove)) await rm(join(top, p.path), { force: true });
  for (const p of plans.filter((x) => !x.remove)) {
    const target = join(top, p.path);
    await mkdir(dirname(target), { recursive: true });
    const realDir = await realpath(dirname(target));
    if (!isInside(realDir, realTop)) throw new Error(`'${p.path}' leads outside ${top}; not written`);
    if (p.mode === '120000') {
      await rm(target, { force: true });
      await symlink(p.write!.toString('utf8'), target);
      continue;
    }
    // A plain write keeps the file's inode, owner and (for an existing file) its mode.
    await writeFile(target, p.write!);
    if (p.mode === '100755') await chmod(target, 0o755);
  }
}
