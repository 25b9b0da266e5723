// Everything arbor writes under ARBOR_HOME holds conversations, task outputs or config: it
// is the user's alone. Folders are created 0700 and files 0600 whatever the umask, and at
// start anything an older arbor (or a umask) left readable by others is tightened.
import { appendFileSync, chmodSync, lstatSync, mkdirSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) 0700. An existing folder is left as it is: only
 * tightenArborHome changes modes of what is already there. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** openSync that creates the file 0600. */
export function openPrivate(path: string, flags: string): number {
  return openSync(path, flags, PRIVATE_FILE_MODE);
}

/** appendFileSync that creates the file 0600. */
export function appendPrivate(path: string, text: string): void {
  appendFileSync(path, text, { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
}

/** writeFileSync that creates the file 0600 (`flag` as for writeFileSync, e.g. 'wx'). */
export function writePrivate(path: string, text: string, flag = 'w'): void {
  writeFileSync(path, text, { encoding: 'utf8', mode: PRIVATE_FILE_MODE, flag });
}

/** The folders under ARBOR_HOME arbor writes to; their files are checked one level deep. */
export const ARBOR_HOME_SUBDIRS = ['sessions', 'logs', 'tasks', 'exports', 'mcp-auth'] as const;

export interface Tightened {
  /** Paths relative to ARBOR_HOME ('.' for the home itself), in the order they were fixed. */
  paths: string[];
}

/** Removes group and other permission bits from `path` if it has any. Symlinks are never
 * followed (chmod would change the target, which may be anywhere). */
function tightenOne(path: string, fixed: string[], home: string): boolean {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return false;
  }
  if (st.isSymbolicLink()) return false;
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return st.isDirectory();
  if ((st.mode & 0o077) !== 0) {
    try {
      // Owner bits kept (a 0644 file becomes 0600, a 0755 folder 0700).
      chmodSync(path, st.mode & 0o700);
      fixed.push(relative(home, path) || '.');
    } catch {
      // Not ours to change (or a read-only file system): left as it is.
    }
  }
  return st.isDirectory();
}

/** Tightens ARBOR_HOME, its config files and the known state folders with their files to
 * 0700 / 0600. Returns what was changed, so the caller can say so. Missing paths are fine. */
export function tightenArborHome(home: string): Tightened {
  const fixed: string[] = [];
  if (!tightenOne(home, fixed, home)) return { paths: fixed };
  let top: string[];
  try {
    top = readdirSync(home);
  } catch {
    return { paths: fixed };
  }
  for (const name of top) {
    // Config files and any other state file directly in the home.
    const path = join(home, name);
    const isDir = tightenOne(path, fixed, home);
    if (!isDir || !(ARBOR_HOME_SUBDIRS as readonly string[]).includes(name)) continue;
    let inner: string[];
    try {
      inner = readdirSync(path);
    } catch {
      continue;
    }
    for (const child of inner) tightenOne(join(path, child), fixed, home);
  }
  return { paths: fixed };
}

/** "/home/ana/.arbor, sessions (3), logs (2), config.toml": what was tightened, counted per
 * top-level entry of ARBOR_HOME (a folder counts itself and its files). The home itself is
 * recorded as "." and named by its path here: a bare "." before a full stop read as "..". */
export function summarizeTightened(paths: readonly string[], home: string): string {
  const groups = new Map<string, number>();
  for (const p of paths) {
    const slash = p.indexOf('/');
    const key = slash < 0 ? p : p.slice(0, slash);
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return [...groups]
    .map(([k, n]) => {
      const name = k === '.' ? home : k;
      return n > 1 ? `${name} (${n})` : name;
    })
    .join(', ');
}
