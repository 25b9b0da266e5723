// read_file: a UTF-8 text file through the confined open, capped at READ_CAP_BYTES.
import { z } from 'zod';
import { NOT_REGULAR } from './confinedOpen.js';
import { defineTool } from './defineTool.js';
import { describeConfinement, filePath, guard, IO_ERROR, openChecked, utf8Boundary } from './fileAccess.js';
import { invalidArgsMap } from './toolArgs.js';
import { fail, ok } from './types.js';

export const READ_CAP_BYTES = 64 * 1024;

export const FILE_NOT_FOUND = (p: string) => `File not found: '${p}'.`;
export const READ_IS_DIRECTORY = (p: string) => `'${p}' is a directory; use list_files to see its entries.`;
export const BINARY_FILE = (p: string, bytes: number) => `'${p}' looks like a binary file (${bytes} bytes); not shown.`;
export const EMPTY_FILE = (p: string) => `(empty file: '${p}')`;
export const READ_TRUNCATED = (p: string, shown: number, total: number) =>
  `[truncated: showed the first ${shown} of ${total} bytes of '${p}']`;

export const readFileArgs = z.object({ path: filePath });

export const readFileTool = defineTool({
  name: 'read_file',
  args: readFileArgs,
  argsError: invalidArgsMap('read_file', '{"path": string}'),
  asksByDefault: false,
  description: (caller) =>
    `Read a UTF-8 text file. ${describeConfinement(caller)} Output is capped at ${READ_CAP_BYTES / 1024} KiB; longer files are truncated with a note.`,
  async run({ path: input }, ctx) {
    const guarded = guard(input, ctx);
    if (!guarded.ok) return fail(guarded.error);
    const opened = await openChecked(input, guarded.path, ctx, 'read');
    if (!opened.ok) return fail(opened.code === 'ENOENT' ? FILE_NOT_FOUND(input) : opened.error);
    const { handle, stat: st } = opened;
    try {
      if (st.isDirectory()) return fail(READ_IS_DIRECTORY(input));
      if (!st.isFile()) return fail(NOT_REGULAR(input));
      // One byte past the cap tells a file of exactly the cap apart from a longer one.
      const buf = Buffer.alloc(READ_CAP_BYTES + 1);
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      const chunk = buf.subarray(0, Math.min(bytesRead, READ_CAP_BYTES));
      if (chunk.includes(0)) return fail(BINARY_FILE(input, Math.max(st.size, bytesRead)));
      if (bytesRead === 0) return ok(EMPTY_FILE(input), { kind: 'read', path: input, bytes: 0, empty: true });
      if (bytesRead <= READ_CAP_BYTES) return ok(chunk.toString('utf8'), { kind: 'read', path: input, bytes: bytesRead });
      const cut = utf8Boundary(buf, READ_CAP_BYTES);
      const text = chunk.subarray(0, cut).toString('utf8');
      const size = Math.max(st.size, bytesRead);
      return ok(`${text}\n\n${READ_TRUNCATED(input, cut, size)}`, { kind: 'read', path: input, bytes: cut, truncated: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fail(FILE_NOT_FOUND(input));
      return fail(IO_ERROR('read', input, err));
    } finally {
      await handle.close();
    }
  },
});
