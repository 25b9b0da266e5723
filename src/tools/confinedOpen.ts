// Opening what the path guard checked, not whatever the path names a moment later. The
// guard resolves symlinks and checks the real path; a plain open() then resolves the path
// again, so a link flipped in between would hand over a file outside the roots. Here:
// open the checked real path with O_NOFOLLOW (the last component cannot be a link), then
// ask the kernel where the descriptor really points (/proc/self/fd on Linux), run the guard
// again on that path, and compare device/inode of the descriptor with that path. Only a
// descriptor that passes is read, written or listed. Directory walks open each child
// relative to its parent's descriptor, so a directory swapped for a link mid-walk is not
// followed. Without /proc the checked path itself is re-checked and compared (a narrower
// window, not a closed one).
import { constants, existsSync, readlinkSync, statSync, unlinkSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { PathGuardResult } from './pathGuard.js';

export const PATH_CHANGED = (p: string) =>
  `Path '${p}' refused: it changed while it was being opened (a symlink or directory was swapped); nothing was read or written.`;
export const NOT_REGULAR = (p: string) => `'${p}' is not a regular file (a FIFO, socket or device); not opened.`;

const PROC_FD = '/proc/self/fd';
const procFd = existsSync(PROC_FD);

/** A path naming the open descriptor itself (Linux), usable where Node wants a path. */
export function descriptorPath(fd: number): string | undefined {
  return procFd ? `${PROC_FD}/${fd}` : undefined;
}

/** Where the kernel says `fd` is, or `fallback` where it cannot say. */
function kernelPathOf(fd: number, fallback: string): string {
  if (!procFd) return fallback;
  try {
    return readlinkSync(`${PROC_FD}/${fd}`);
  } catch {
    return fallback;
  }
}

/** On failure `code` is the errno of a failed open(); without it `error` is a refusal the
 * model reads as is. */
export type Opened =
  | { ok: true; handle: FileHandle; stat: Stats; created: boolean; /** The handle can also read (openForWrite). */ readable?: boolean }
  | { ok: false; error: string; code?: string };

/** Runs the guard on an absolute path (the kernel's name for what was opened). */
export type Recheck = (absolutePath: string) => PathGuardResult;

type Verified = { ok: true; stat: Stats } | { ok: false; error: string; where: string; stat: Stats };

/** Checks an open handle against the guard: the kernel's path for it must pass the guard
 * and still name the same device/inode. */
async function verify(handle: FileHandle, checked: string, input: string, recheck: Recheck): Promise<Verified> {
  const stat = await handle.stat();
  const where = kernelPathOf(handle.fd, checked);
  const refused = { ok: false as const, error: PATH_CHANGED(input), where, stat };
  if (!recheck(where).ok) return refused;
  let now: Stats;
  try {
    now = statSync(where);
  } catch {
    return refused;
  }
  if (now.dev !== stat.dev || now.ino !== stat.ino) return refused;
  return { ok: true, stat };
}

/** Removes a file this call just created in the wrong place, if it is still that file. */
function removeIfOurs(where: string, stat: Stats): void {
  try {
    const now = statSync(where);
    if (now.dev === stat.dev && now.ino === stat.ino && now.size === 0) unlinkSync(where);
  } catch {
    // Gone already, or not ours to touch.
  }
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Opens the checked real path for reading (a file or a directory) and verifies it. */
export async function openForRead(checked: string, input: string, recheck: Recheck): Promise<Opened> {
  let handle: FileHandle;
  try {
    handle = await open(checked, READ_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ELOOP: the last component became a symlink after the check.
    if (code === 'ELOOP') return { ok: false, error: PATH_CHANGED(input) };
    return { ok: false, error: (err as Error).message, code };
  }
  const v = await verify(handle, checked, input, recheck);
  if (!v.ok) {
    await handle.close();
    return { ok: false, error: v.error };
  }
  return { ok: true, handle, stat: v.stat, created: false };
}

/** Opens the checked real path for writing: an existing file without truncating it yet,
 * else a new one with O_CREAT|O_EXCL (never through a link), then verifies it. The caller
 * truncates and writes only after this succeeded. With `create: false` (edit_file) a missing
 * file is an ENOENT failure, never created. */
export async function openForWrite(checked: string, input: string, recheck: Recheck, opts: { create?: boolean } = {}): Promise<Opened> {
  for (let attempt = 0; attempt < 3; attempt++) {
    let handle: FileHandle | undefined;
    let created = false;
    // Read-write, so the caller can read what it is about to replace (the diff) through the
    // same checked descriptor; a file the user may write but not read still opens write-only.
    let readable = true;
    try {
      handle = await open(checked, constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      let failure = err as NodeJS.ErrnoException;
      if (failure.code === 'EACCES') {
        readable = false;
        try {
          handle = await open(checked, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
        } catch (again) {
          failure = again as NodeJS.ErrnoException;
        }
      }
      if (!handle) {
        if (failure.code === 'ELOOP') return { ok: false, error: PATH_CHANGED(input) };
        if (failure.code !== 'ENOENT' || opts.create === false) return { ok: false, error: failure.message, code: failure.code };
      }
    }
    if (!handle) {
      try {
        handle = await open(checked, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
        created = true;
        readable = true;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') continue; // created by someone else meanwhile: open that one
        if (code === 'ELOOP') return { ok: false, error: PATH_CHANGED(input) };
        return { ok: false, error: (err as Error).message, code };
      }
    }
    const v = await verify(handle, checked, input, recheck);
    if (!v.ok) {
      await handle.close();
      if (created) removeIfOurs(v.where, v.stat);
      return { ok: false, error: v.error };
    }
    if (!v.stat.isFile()) {
      await handle.close();
      return { ok: false, error: NOT_REGULAR(input) };
    }
    return { ok: true, handle, stat: v.stat, created, readable };
  }
  return { ok: false, error: PATH_CHANGED(input) };
}

/** Opens directory `name` inside the directory open as `parentFd` without following a link
 * there: through /proc/self/fd on Linux (like openat), else through `fallbackPath`.
 * undefined when it is not (or no longer) a directory. */
export async function openChildDirectory(parentFd: number, name: string, fallbackPath: string): Promise<FileHandle | undefined> {
  if (name.includes('/')) return undefined;
  const base = descriptorPath(parentFd);
  try {
    return await open(base ? `${base}/${name}` : fallbackPath, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
}
