// Reading a file a repository (or anyone) put in place: opened non-blocking and refused
// unless it is a regular file, so a FIFO never hangs the start and /dev/zero never fills
// memory, and never more than a cap of it is read.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Why a file was not read: `code` is an errno code or one of ours. */
export class UnreadableFile extends Error {
  constructor(
    readonly code: 'ENOTREG' | 'TOOBIG' | string,
    readonly size?: number,
  ) {
    super(code);
  }
}

/** At most `limit` bytes of `path` and its real size. Throws UnreadableFile for a
 * directory, a FIFO, a device or a socket (the open does not block), or a missing file. */
export function readHead(path: string, limit: number): { size: number; bytes: Buffer } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new UnreadableFile((err as NodeJS.ErrnoException).code ?? (err as Error).message);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new UnreadableFile('EISDIR');
    if (!st.isFile()) throw new UnreadableFile('ENOTREG');
    const want = Math.min(st.size, limit);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    return { size: st.size, bytes: buf.subarray(0, got) };
  } finally {
    closeSync(fd);
  }
}

/** The whole file as UTF-8, or UnreadableFile('TOOBIG') when it is over `maxBytes`. */
export function readSmallFile(path: string, maxBytes: number): string {
  const { size, bytes } = readHead(path, maxBytes + 1);
  if (size > maxBytes || bytes.length > maxBytes) throw new UnreadableFile('TOOBIG', size);
  return bytes.toString('utf8');
}
