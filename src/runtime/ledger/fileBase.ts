// A file's content before the session first changed it, for /diff: read just before a file
// tool runs (or taken from the work-tree snapshot a shell command's change was seen in),
// bounded per file and per session. Beyond the bounds the base says it was not kept and
// /diff shows the change's stats only.
import { open, stat } from 'node:fs/promises';
import type { FileBase } from '../../model/ledger.js';

/** A base larger than this is not kept. */
export const BASE_MAX_BYTES = 1024 * 1024;
/** All bases one session keeps, at most; past it new ones are not kept. */
export const BASES_SESSION_BUDGET_BYTES = 16 * 1024 * 1024;

export type BaseRead = Pick<FileBase, 'existed' | 'content' | 'notKept'>;

const isBinary = (buf: Buffer) => buf.subarray(0, 8000).includes(0);

/** What `abs` holds now, as a base. Never throws. */
export async function readBase(abs: string): Promise<BaseRead> {
  let size: number;
  try {
    const st = await stat(abs);
    if (!st.isFile()) return { existed: true, notKept: 'unreadable' };
    size = st.size;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? { existed: false } : { existed: true, notKept: 'unreadable' };
  }
  if (size > BASE_MAX_BYTES) return { existed: true, notKept: 'too_large' };
  try {
    const fh = await open(abs, 'r');
    try {
      const buf = await fh.readFile();
      if (buf.length > BASE_MAX_BYTES) return { existed: true, notKept: 'too_large' };
      if (isBinary(buf)) return { existed: true, notKept: 'binary' };
      return { existed: true, content: buf.toString('utf8') };
    } finally {
      await fh.close();
    }
  } catch {
    return { existed: true, notKept: 'unreadable' };
  }
}
