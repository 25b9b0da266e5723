// The files grep and glob look at: every file under a checked directory that .gitignore
// files (nested ones included) do not ignore, never inside .git/ or a forbidden path. In a
// git work tree the index says which they are (`git ls-files -co --exclude-standard`,
// the fastest and most faithful answer); elsewhere, or where git cannot answer, a walk
// through descriptors (as list_files walks) applies the .gitignore files it meets with the
// `ignore` package. Nothing here follows a symlink; grep's threads open each listed file
// with O_NOFOLLOW and check that the kernel's name for it is still under the searched
// directory (grepWorker.ts).
import { execFile } from 'node:child_process';
import { readlinkSync, type Dirent } from 'node:fs';
import { readdir, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { barriersOf } from './authority.js';
import { gitEnv } from './gitEnv.js';
import { descriptorPath, openChildDirectory } from './confinedOpen.js';
import { guard, openChecked } from './fileAccess.js';
import { barrierAt, realpathLoose, type Barrier } from './pathGuard.js';
import type { ToolContext } from './types.js';

const GIT_TIMEOUT_MS = 30_000;
const GIT_MAX_BUFFER = 256 * 1024 * 1024;

/** A searched directory (or file), opened through the checked open: `handle` is the
 * verified descriptor (git starts in it and the walk reads through it, so a directory
 * renamed or swapped for a link after the check is not followed), `real` the kernel's path
 * for it when it was opened (every file read must still be under it), and the forbidden
 * paths and fences (pathGuard.ts) both as written and as resolved. */
export interface SearchRoot {
  shown: string;
  real: string;
  handle: FileHandle;
  isFile: boolean;
  forbidden: Barrier[];
  signal: AbortSignal;
}

export type OpenedRoot = { ok: true; root: SearchRoot } | { ok: false; error: string; code?: string };

export const SEARCH_PATH_NOT_FOUND = (p: string) => `Path not found: '${p}'.`;

/** What grep and glob search: their `path` argument (default the workspace) guarded and
 * opened, or the model-facing refusal. `lexical` is the guarded path as resolved. */
export async function searchTarget(
  path: string | undefined,
  ctx: ToolContext,
): Promise<{ ok: true; input: string; lexical: string; root: SearchRoot } | { ok: false; error: string }> {
  const input = path && path.trim() !== '' ? path : '.';
  const guarded = guard(input, ctx);
  if (!guarded.ok) return { ok: false, error: guarded.error };
  const opened = await openSearchRoot(input, guarded.path, ctx);
  if (!opened.ok) return { ok: false, error: opened.code === 'ENOENT' ? SEARCH_PATH_NOT_FOUND(input) : opened.error };
  return { ok: true, input, lexical: guarded.path, root: opened.root };
}

/** Opens what the guard checked; the caller closes `root.handle`. */
export async function openSearchRoot(shown: string, lexical: string, ctx: ToolContext): Promise<OpenedRoot> {
  const opened = await openChecked(shown, lexical, ctx, 'list');
  if (!opened.ok) return opened;
  const proc = descriptorPath(opened.handle.fd);
  let real: string;
  try {
    real = proc ? readlinkSync(proc) : realpathLoose(lexical);
  } catch (err) {
    await opened.handle.close();
    return { ok: false, error: (err as Error).message };
  }
  const written = barriersOf(ctx.caller, ctx.cwd);
  const resolved = written.map((b) => ({ path: realpathLoose(b.path), except: b.except.map((e) => realpathLoose(e)) }));
  const all = new Map<string, Barrier>([...written, ...resolved].map((b) => [JSON.stringify([b.path, b.except]), b]));
  return {
    ok: true,
    root: {
      shown,
      real,
      handle: opened.handle,
      isFile: opened.stat.isFile(),
      forbidden: [...all.values()],
      signal: ctx.signal,
    },
  };
}

function forbiddenAt(root: SearchRoot, abs: string): boolean {
  return barrierAt(abs, root.forbidden) !== undefined;
}

/** git, answering only from what it is given: no prompts, no optional lock, no fsmonitor
 * hook, and no secret of arbor's environment. `which`: '-c' the index, '-o' the untracked
 * files .gitignore does not exclude. */
function gitLsFiles(
  cwd: string,
  which: '-c' | '-o' | '-co',
  pathspec: string | undefined,
  signal: AbortSignal,
): Promise<Buffer | undefined> {
  const args = ['--no-optional-locks', '-c', 'core.fsmonitor=false', '-c', 'core.quotepath=off', 'ls-files', '-z', which];
  if (which !== '-c') args.push('--exclude-standard');
  if (pathspec !== undefined) args.push('--', pathspec);
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      {
        cwd,
        encoding: 'buffer',
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: GIT_MAX_BUFFER,
        signal,
        env: gitEnv(),
        windowsHide: true,
      },
      (err, stdout) => resolve(err ? undefined : stdout),
    );
  });
}

function parseListing(root: SearchRoot, listed: Buffer): string[] {
  const out: string[] = [];
  for (const rel of listed.toString('utf8').split('\0')) {
    // A nested repository git does not enter is listed as 'dir/'.
    if (rel === '' || rel.endsWith('/')) continue;
    if (rel.startsWith('.git/') || rel.includes('/.git/')) continue;
    if (root.forbidden.length > 0 && forbiddenAt(root, join(root.real, rel))) continue;
    out.push(rel);
  }
  out.sort();
  // An unmerged file is listed once per stage.
  return out.filter((rel, i) => i === 0 || rel !== out[i - 1]);
}

/** Paths under `root` (relative, '/'-separated) in disjoint parts, each sorted, each
 * usable as soon as it resolves: in a git work tree the tracked files first (the index,
 * quick) and the untracked ones (git walks the tree for those) after, so grep searches
 * (and glob dates) the first while git still walks; elsewhere one part from the walk.
 * `pathspec` (gitPathspec) lets git leave out what cannot match: the parts then hold a
 * superset of the matches, which the caller still filters. `split: false` asks one git
 * for both (the second part is then empty): on a loaded machine a second process cost
 * more than the overlap saved where the work per file is a stat (glob). */
export function candidateParts(root: SearchRoot, opts: { pathspec?: string; split: boolean }): [Promise<string[]>, Promise<string[]>] {
  const { pathspec } = opts;
  // git starts in the opened directory itself (its descriptor, seen from the child).
  const proc = descriptorPath(root.handle.fd);
  const cwd = proc ? `/proc/${process.pid}/fd/${root.handle.fd}` : root.real;
  const list = (which: '-c' | '-o' | '-co') =>
    gitLsFiles(cwd, which, pathspec, root.signal).then((b) => (b ? parseListing(root, b) : undefined));
  const tracked = list(opts.split ? '-c' : '-co');
  const untracked = opts.split ? list('-o') : Promise.resolve<string[]>([]);
  const walked = async () => {
    const out: string[] = [];
    await walk(root, '', root.handle, [], out);
    return out;
  };
  const first = tracked.then(async (t) => {
    if (t && t.length > 0) return t;
    const u = await untracked;
    if (u && u.length > 0) return [];
    // Nothing under the pathspec: asked again without it, so that the case below is told
    // from "nothing matches" the same way with a pathspec as without.
    if (t && u && pathspec !== undefined) return candidateFiles(root);
    // Not a work tree, or git could not answer, or it lists no file (a directory that
    // .gitignore ignores): the walk decides.
    return walked();
  });
  const second = Promise.all([tracked, untracked]).then(async ([t, u]) => {
    if (!t || t.length === 0) return u ?? [];
    if (u) return u;
    // git listed the index but not the rest: the walk finds the rest.
    const known = new Set(t);
    return (await walked()).filter((rel) => !known.has(rel));
  });
  return [first, second];
}

/** A git pathspec matching every path the glob `pattern` (picomatch) matches, or
 * undefined when it would not narrow anything: the literal text before the first
 * wildcard, '*', and the literal text after the last. Without the glob magic a git '*'
 * also matches '/', so a pattern that starts 'src/' and ends '.py' gives 'src/*.py',
 * which every one of its matches fits. */
export function gitPathspec(pattern: string): string | undefined {
  // A leading '!' negates the glob (picomatch): its matches are the paths the literal text
  // would rule out, so nothing can be narrowed.
  if (pattern.startsWith('!')) return undefined;
  const special = /[*?[\]{}()!+@\\]/;
  const first = pattern.search(special);
  if (first === -1) return pattern.startsWith(':') ? undefined : pattern;
  let last = pattern.length - 1;
  while (last >= 0 && !special.test(pattern[last])) last--;
  const prefix = pattern.slice(0, first);
  const suffix = pattern.slice(last + 1);
  // ':' opens git's pathspec magic; nothing to narrow by, nothing to ask for.
  if (prefix.startsWith(':') || (prefix === '' && suffix === '')) return undefined;
  return `${prefix}*${suffix}`;
}

/** Paths under `root` (relative, '/'-separated, sorted), from git or the walk. */
export async function candidateFiles(root: SearchRoot): Promise<string[]> {
  const [a, b] = await Promise.all(candidateParts(root, { split: false }));
  return b.length === 0 ? a : [...a, ...b].sort();
}

interface Rules {
  /** The directory the .gitignore is in, relative to the searched root ('' for the root). */
  dir: string;
  rules: Ignore;
}

function ignoredBy(chain: Rules[], rel: string, isDir: boolean): boolean {
  for (const { dir, rules } of chain) {
    const sub = dir === '' ? rel : rel.slice(dir.length + 1);
    if (rules.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}

async function rulesIn(dir: FileHandle, rel: string, entries: Dirent[]): Promise<Rules | undefined> {
  if (!entries.some((e) => e.name === '.gitignore' && e.isFile())) return undefined;
  const base = descriptorPath(dir.fd);
  if (!base) return undefined;
  try {
    const text = await readFile(`${base}/.gitignore`, 'utf8');
    return { dir: rel, rules: ignore().add(text) };
  } catch {
    return undefined;
  }
}

async function walk(root: SearchRoot, rel: string, dir: FileHandle, chain: Rules[], out: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(descriptorPath(dir.fd) ?? join(root.real, rel), { withFileTypes: true });
  } catch {
    return; // An unreadable directory is skipped.
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const own = await rulesIn(dir, rel, entries);
  const rules = own ? [...chain, own] : chain;
  for (const entry of entries) {
    if (root.signal.aborted) return;
    if (entry.name === '.git') continue;
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    if (root.forbidden.length > 0 && forbiddenAt(root, join(root.real, relPath))) continue;
    const isDir = entry.isDirectory();
    if (ignoredBy(rules, relPath, isDir)) continue;
    if (entry.isFile()) out.push(relPath);
    else if (isDir) {
      // Opened relative to this directory without following a link.
      const child = await openChildDirectory(dir.fd, entry.name, join(root.real, relPath));
      if (!child) continue;
      try {
        await walk(root, relPath, child, rules, out);
      } finally {
        await child.close();
      }
    }
  }
}
