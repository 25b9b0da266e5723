// A git work tree's state as the ledger compares it around a shell command: which paths
// differ from the index (`git status --porcelain -z`, ignored files excluded), each with a
// content hash, and the content of small text files so a diff can be made afterwards.
// Bounded: past MAX_ENTRIES changed paths the snapshot says so instead of hashing them all;
// large files are keyed by their stat, not read.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gitEnv } from '../../tools/gitEnv.js';

/** More changed paths than this and the command's changes are reported as not observed. */
export const MAX_ENTRIES = 2000;
/** Files up to this size are hashed by content; larger ones by size and times. */
const HASH_MAX_BYTES = 4 * 1024 * 1024;
/** Text files up to this size keep their content for the diff. */
export const CONTENT_MAX_BYTES = 256 * 1024;
const GIT_TIMEOUT_MS = 15_000;
const GIT_MAX_BUFFER = 32 * 1024 * 1024;

export interface Entry {
  /** Porcelain XY code. */
  code: string;
  /** Content hash of the work-tree file; null when it is missing from the work tree. */
  hash: string | null;
  /** The text, when small and not binary (for the diff). */
  content?: string;
}

export interface Snapshot {
  entries: Map<string, Entry>;
  /** Too many changed paths to compare (MAX_ENTRIES). */
  tooMany?: boolean;
  /** git failed: nothing can be said. */
  failed?: string;
}

/** git with no prompts, no pager, and no optional index writes (concurrent snapshots of one
 * tree must not fight over index.lock). */
export function git(cwd: string, args: string[], encoding: 'utf8' | 'buffer' = 'utf8'): Promise<string | Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['--no-optional-locks', '-c', 'core.quotepath=off', ...args],
      {
        cwd,
        encoding,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: GIT_MAX_BUFFER,
        env: gitEnv(),
        windowsHide: true,
      },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    );
  });
}

const topLevels = new Map<string, Promise<string | undefined>>();

/** The work tree's top folder holding `cwd`, or undefined outside a git work tree (or
 * without git). Asked once per folder. */
export function gitTopLevel(cwd: string): Promise<string | undefined> {
  let hit = topLevels.get(cwd);
  if (!hit) {
    hit = git(cwd, ['rev-parse', '--show-toplevel']).then(
      (out) => String(out).trim() || undefined,
      () => undefined,
    );
    topLevels.set(cwd, hit);
  }
  return hit;
}

interface StatKey {
  key: string;
  hash: string;
  content?: string;
}

/** Hashes of unchanged files are reused across snapshots: stat is cheap, reading is not. */
const hashCache = new Map<string, StatKey>();
const HASH_CACHE_MAX = 20_000;

const isBinary = (buf: Buffer) => buf.subarray(0, 8000).includes(0);

async function hashFile(path: string): Promise<{ hash: string | null; content?: string }> {
  let st;
  try {
    st = await stat(path, { bigint: true });
  } catch {
    return { hash: null };
  }
  if (!st.isFile()) return { hash: `other:${st.mode}` };
  const key = `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
  const cached = hashCache.get(path);
  if (cached && cached.key === key) return { hash: cached.hash, content: cached.content };
  let result: StatKey;
  if (st.size > BigInt(HASH_MAX_BYTES)) {
    result = { key, hash: `stat:${key}` };
  } else {
    const fh = await open(path, 'r').catch(() => undefined);
    if (!fh) return { hash: null };
    try {
      const buf = await fh.readFile();
      const hash = createHash('sha1').update(buf).digest('hex');
      const content = buf.length <= CONTENT_MAX_BYTES && !isBinary(buf) ? buf.toString('utf8') : undefined;
      result = { key, hash, content };
    } finally {
      await fh.close();
    }
  }
  if (hashCache.size >= HASH_CACHE_MAX) hashCache.clear();
  hashCache.set(path, result);
  return { hash: result.hash, content: result.content };
}

/** Splits `git status --porcelain -z` output: "XY path\0" records (no renames asked). */
export function parsePorcelain(out: string): Array<{ code: string; path: string }> {
  const records: Array<{ code: string; path: string }> = [];
  for (const rec of out.split('\0')) {
    if (rec.length < 4) continue;
    records.push({ code: rec.slice(0, 2), path: rec.slice(3) });
  }
  return records;
}

/** The tree's changed paths, hashed. Never throws: a failure is in `failed`. */
export async function takeSnapshot(top: string): Promise<Snapshot> {
  let out: string;
  try {
    out = String(await git(top, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']));
  } catch (err) {
    return { entries: new Map(), failed: (err as Error).message };
  }
  const records = parsePorcelain(out);
  if (records.length > MAX_ENTRIES) return { entries: new Map(), tooMany: true };
  const entries = new Map<string, Entry>();
  await Promise.all(
    records.map(async ({ code, path }) => {
      const h = code[1] === 'D' ? { hash: null } : await hashFile(join(top, path));
      entries.set(path, { code, ...h });
    }),
  );
  return { entries, failed: undefined };
}

/** The index's version of a path (what a clean work-tree file holds), or undefined when the
 * index has none, it is binary or too large to diff. */
export async function indexContent(top: string, path: string): Promise<string | undefined> {
  try {
    const buf = (await git(top, ['cat-file', 'blob', `:${path}`], 'buffer')) as Buffer;
    return buf.length <= CONTENT_MAX_BYTES && !isBinary(buf) ? buf.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}
