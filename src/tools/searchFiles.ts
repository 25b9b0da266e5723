// The files grep and glob look at: every file under a checked directory that .gitignore
// files (nested ones included) do not ignore, never inside .git/ or a forbidden path. In a
// git work tree the index says which they are (`git ls-files -co --exclude-standard`,
// the fastest and most faithful answer); elsewhere, or where git cannot answer, a walk
// through descriptors (as list_files walks) applies the .gitignore files it meets with the
// `ignore` package. Nothing here follows a symlink: files are opened with O_NOFOLLOW and
// the kernel's name for each descriptor must still be under the searched directory.
import { execFile } from 'node:child_process';
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, type Dirent } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { readdir, readFile, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { forbiddenPathsOf } from './authority.js';
import { gitEnv } from './gitEnv.js';
import { descriptorPath, openChildDirectory } from './confinedOpen.js';
import { guard, openChecked } from './fileAccess.js';
import { isInside, realpathLoose, resolveConfigPath } from './pathGuard.js';
import type { ToolContext } from './types.js';

const GIT_TIMEOUT_MS = 30_000;
const GIT_MAX_BUFFER = 256 * 1024 * 1024;

/** A searched directory (or file), opened through the checked open: `handle` is the
 * verified descriptor (git starts in it and the walk reads through it, so a directory
 * renamed or swapped for a link after the check is not followed), `real` the kernel's path
 * for it when it was opened (every file read must still be under it), and the forbidden
 * paths both as written and as resolved. */
export interface SearchRoot {
  shown: string;
  real: string;
  handle: FileHandle;
  isFile: boolean;
  forbidden: string[];
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
  const home = homedir();
  const forbidden = forbiddenPathsOf(ctx.caller).map((f) => resolveConfigPath(f, ctx.cwd, home));
  const all = new Set([...forbidden, ...forbidden.map((f) => realpathLoose(f))]);
  return {
    ok: true,
    root: {
      shown,
      real,
      handle: opened.handle,
      isFile: opened.stat.isFile(),
      forbidden: [...all],
      signal: ctx.signal,
    },
  };
}

function forbiddenAt(root: SearchRoot, abs: string): boolean {
  return root.forbidden.some((f) => isInside(abs, f));
}

/** git, answering only from what it is given: no prompts, no optional lock, no fsmonitor
 * hook, and no secret of arbor's environment. */
function gitLsFiles(cwd: string, signal: AbortSignal): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['--no-optional-locks', '-c', 'core.fsmonitor=false', '-c', 'core.quotepath=off', 'ls-files', '-z', '-co', '--exclude-standard'],
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

/** Paths under `root` (relative, '/'-separated, sorted), from git or the walk. */
export async function candidateFiles(root: SearchRoot): Promise<string[]> {
  // git starts in the opened directory itself (its descriptor, seen from the child).
  const proc = descriptorPath(root.handle.fd);
  const listed = await gitLsFiles(proc ? `/proc/${process.pid}/fd/${root.handle.fd}` : root.real, root.signal);
  if (listed && listed.length > 0) {
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
  const out: string[] = [];
  await walk(root, '', root.handle, [], out);
  return out;
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

const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The content of `rel`, or undefined when it is not a regular file of at most `maxBytes`
 * under the root (a symlink, a swapped directory, a FIFO, a directory, too large, gone).
 * Synchronous on purpose: the files are small and cached, and on a busy two-core machine a
 * thread-pool round trip per open/read/close cost several times the read itself; callers
 * work in slices and yield between them (slicer). The bytes are read into `scratch`, which
 * is reused for every file (the garbage of one buffer per file was a third of the time):
 * the result is only valid until the next call. */
export function readConfined(root: SearchRoot, rel: string, scratch: Scratch): Buffer | undefined {
  let fd: number;
  try {
    // By the real path: opening through /proc/self/fd/N/... costs a lookup through procfs
    // per file; the check below is what makes the open safe either way.
    fd = openSync(join(root.real, rel), FILE_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const proc = descriptorPath(fd);
    if (proc) {
      // A directory on the way swapped for a link after the listing: where the descriptor
      // really is decides.
      const where = readlinkSync(proc);
      if (!isInside(where, root.real) || forbiddenAt(root, where)) return undefined;
    }
    return readAll(fd, scratch);
  } catch {
    // EISDIR, EAGAIN (a FIFO), gone: not a file to search.
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A buffer reused across reads, one byte larger than the biggest file searched, so a
 * read that fills it says "too large" without a stat. */
export interface Scratch {
  buf: Buffer;
  maxBytes: number;
}

export function scratchFor(maxBytes: number): Scratch {
  return { buf: Buffer.allocUnsafe(maxBytes + 1), maxBytes };
}

function readAll(fd: number, scratch: Scratch): Buffer | undefined {
  const { buf, maxBytes } = scratch;
  let at = 0;
  for (;;) {
    const n = readSync(fd, buf, at, buf.length - at, at);
    if (n === 0) break;
    at += n;
    if (at > maxBytes) return undefined;
  }
  return buf.subarray(0, at);
}

/** The root itself when it is a file: read through its verified descriptor. */
export function readRootFile(root: SearchRoot, scratch: Scratch): Buffer | undefined {
  try {
    return fstatSync(root.handle.fd).isFile() ? readAll(root.handle.fd, scratch) : undefined;
  } catch {
    return undefined;
  }
}

/** Slices of synchronous work this long at most before the event loop gets a turn (so the
 * screen keeps drawing and an abort is seen). */
const SLICE_MS = 12;

/** Call between items of a long synchronous pass: yields once a slice is used up. */
export function slicer(): () => Promise<void> | undefined {
  let start = performance.now();
  return () => {
    if (performance.now() - start < SLICE_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        start = performance.now();
        resolve();
      }),
    );
  };
}
