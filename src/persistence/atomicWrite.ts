import { randomBytes } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import { writePrivate } from './privateFs.js';

/** Writes `data` to `path` so a reader sees either the old content or the new, never a
 * half-written file: write a sibling temp file, then rename over the target. */
export function writeFileAtomic(path: string, data: string): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    // Created 0600: the rename keeps the mode, so the record is private from its first byte.
    writePrivate(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
