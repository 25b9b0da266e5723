// read_file: a UTF-8 text file through the confined open, by line range, numbered the way
// `cat -n` numbers lines so the model can cite and edit by line. The whole file is scanned
// to count its lines (the note says how many there are), but only the requested range is
// decoded, and the output stays under READ_CAP_BYTES.
import type { FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { NOT_REGULAR } from './confinedOpen.js';
import { defineTool } from './defineTool.js';
import { describeConfinement, filePath, guard, IO_ERROR, openChecked } from './fileAccess.js';
import { invalidArgsMap } from './toolArgs.js';
import { fail, ok } from './types.js';

export const READ_CAP_BYTES = 64 * 1024;
export const READ_DEFAULT_LIMIT = 2000;
export const READ_LINE_CAP_CHARS = 2000;
/** offset and limit above this are refused (and the schema states a readable maximum). */
const MAX_LINE_NUMBER = 100_000_000;
/** The file is read in chunks of this size; the first one is also what the binary check sees. */
const CHUNK_BYTES = 64 * 1024;

export const FILE_NOT_FOUND = (p: string) => `File not found: '${p}'.`;
export const READ_IS_DIRECTORY = (p: string) => `'${p}' is a directory; use list_files to see its entries.`;
export const BINARY_FILE = (p: string, bytes: number) => `'${p}' looks like a binary file (${bytes} bytes); not shown.`;
export const EMPTY_FILE = (p: string) => `(empty file: '${p}')`;
export const READ_MORE = (from: number, to: number, total: number) =>
  `[showing lines ${from}-${to} of ${total}; read more with offset=${to + 1}]`;
export const LINE_CUT = (cap: number) => ` [... line cut at ${cap} characters]`;
export const OFFSET_PAST_END = (p: string, offset: number, total: number) =>
  `offset=${offset} is past the end of '${p}', which has ${total} line${total === 1 ? '' : 's'}.`;
export const BAD_LINE_NUMBER = (key: 'offset' | 'limit') =>
  `Invalid arguments for read_file: '${key}' must be a positive integer (${key === 'offset' ? 'the 1-based first line' : 'the number of lines'}).`;

const lineNumber = (key: 'offset' | 'limit') =>
  z
    .number({ error: BAD_LINE_NUMBER(key) })
    .int({ error: BAD_LINE_NUMBER(key) })
    .min(1, { error: BAD_LINE_NUMBER(key) })
    .max(MAX_LINE_NUMBER, { error: BAD_LINE_NUMBER(key) });

export const readFileArgs = z.object({
  path: filePath,
  offset: lineNumber('offset').describe('1-based number of the first line to read (default 1).').optional(),
  limit: lineNumber('limit').describe(`How many lines to read (default ${READ_DEFAULT_LIMIT}).`).optional(),
});

/** `cat -n`: the number right-aligned in six columns, a tab, the line. */
export function numberedLine(n: number, text: string): string {
  return `${String(n).padStart(6)}\t${text}`;
}

/** A line for the output: without its CR, cut at READ_LINE_CAP_CHARS. `more` says bytes
 * of it were never decoded (a very long line). */
function shownLine(bytes: Buffer, more: boolean): string {
  let text = bytes.toString('utf8');
  if (text.endsWith('\r') && !more) text = text.slice(0, -1);
  if (!more && text.length <= READ_LINE_CAP_CHARS) return text;
  let cut = READ_LINE_CAP_CHARS;
  // Never split a surrogate pair.
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut)}${LINE_CUT(READ_LINE_CAP_CHARS)}`;
}

/** Bytes of a line kept for decoding: enough for READ_LINE_CAP_CHARS of any width. */
const LINE_KEEP_BYTES = READ_LINE_CAP_CHARS * 4 + 4;

interface Scan {
  out: string[];
  outBytes: number;
  first: number;
  last: number;
  /** Lines counted so far (the line in progress not yet). */
  lines: number;
  /** The output is full: the next wanted line did not fit under the byte cap. */
  full: boolean;
  /** The line in progress, when it is wanted: its first bytes, and whether there were more. */
  partial: Buffer[];
  partialBytes: number;
  partialMore: boolean;
  sawBytes: boolean;
  endsWithNewline: boolean;
  bytesShown: number;
}

function wanted(s: Scan, line: number): boolean {
  return !s.full && line >= s.first && line <= s.last;
}

function keep(s: Scan, piece: Buffer): void {
  const room = LINE_KEEP_BYTES - s.partialBytes;
  if (room <= 0) {
    if (piece.length > 0) s.partialMore = true;
    return;
  }
  const part = piece.length > room ? piece.subarray(0, room) : piece;
  if (piece.length > room) s.partialMore = true;
  // Copied: the chunk buffer is reused for the next read.
  s.partial.push(Buffer.from(part));
  s.partialBytes += part.length;
}

/** Ends the line in progress (line number s.lines + 1); `newline`: a newline ended it. */
function endLine(s: Scan, newline: boolean): void {
  const n = s.lines + 1;
  if (wanted(s, n)) {
    const text = numberedLine(n, shownLine(Buffer.concat(s.partial), s.partialMore));
    const size = Buffer.byteLength(text, 'utf8') + 1;
    if (s.outBytes + size > READ_CAP_BYTES && s.out.length > 0) s.full = true;
    else {
      s.out.push(text);
      s.outBytes += size;
      s.bytesShown += s.partialBytes + (newline ? 1 : 0);
    }
  }
  s.lines = n;
  s.partial = [];
  s.partialBytes = 0;
  s.partialMore = false;
}

function scanChunk(s: Scan, chunk: Buffer): void {
  let at = 0;
  while (at < chunk.length) {
    const nl = chunk.indexOf(10, at);
    const end = nl === -1 ? chunk.length : nl;
    if (wanted(s, s.lines + 1)) keep(s, chunk.subarray(at, end));
    if (nl === -1) break;
    endLine(s, true);
    at = nl + 1;
  }
  s.sawBytes = true;
  s.endsWithNewline = chunk[chunk.length - 1] === 10;
}

async function scanFile(handle: FileHandle, first: Buffer, firstRead: number, s: Scan): Promise<void> {
  if (firstRead > 0) scanChunk(s, first.subarray(0, firstRead));
  let pos = firstRead;
  const buf = Buffer.alloc(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) break;
    scanChunk(s, buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
  // A last line without a newline is still a line.
  if (s.sawBytes && !s.endsWithNewline) endLine(s, false);
}

export const readFileTool = defineTool({
  name: 'read_file',
  args: readFileArgs,
  argsError: invalidArgsMap('read_file', '{"path": string}'),
  asksByDefault: false,
  description: (caller) =>
    `Read a UTF-8 text file. Lines are numbered like \`cat -n\` (the number, a tab, the line). ` +
    `Reads ${READ_DEFAULT_LIMIT} lines from the start unless offset (1-based first line) and limit (number of lines) say otherwise; ` +
    `lines over ${READ_LINE_CAP_CHARS} characters are cut, and at most ${READ_CAP_BYTES / 1024} KiB is returned. ` +
    `When the file continues, the output ends with a note giving the offset to read on from. ${describeConfinement(caller)}`,
  async run({ path: input, offset, limit }, ctx) {
    const guarded = guard(input, ctx);
    if (!guarded.ok) return fail(guarded.error);
    const opened = await openChecked(input, guarded.path, ctx, 'read');
    if (!opened.ok) return fail(opened.code === 'ENOENT' ? FILE_NOT_FOUND(input) : opened.error);
    const { handle, stat: st } = opened;
    try {
      if (st.isDirectory()) return fail(READ_IS_DIRECTORY(input));
      if (!st.isFile()) return fail(NOT_REGULAR(input));
      const head = Buffer.alloc(CHUNK_BYTES);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      if (head.subarray(0, bytesRead).includes(0)) return fail(BINARY_FILE(input, Math.max(st.size, bytesRead)));
      if (bytesRead === 0) return ok(EMPTY_FILE(input), { kind: 'read', path: input, bytes: 0, empty: true });
      const first = offset ?? 1;
      const s: Scan = {
        out: [],
        outBytes: 0,
        first,
        last: first + (limit ?? READ_DEFAULT_LIMIT) - 1,
        lines: 0,
        full: false,
        partial: [],
        partialBytes: 0,
        partialMore: false,
        sawBytes: false,
        endsWithNewline: false,
        bytesShown: 0,
      };
      await scanFile(handle, head, bytesRead, s);
      if (s.out.length === 0) return fail(OFFSET_PAST_END(input, first, s.lines));
      const shownTo = first + s.out.length - 1;
      const more = shownTo < s.lines;
      const display = {
        kind: 'read' as const,
        path: input,
        bytes: s.bytesShown,
        startLine: first,
        endLine: shownTo,
        totalLines: s.lines,
        ...(more ? { truncated: true } : {}),
      };
      const body = s.out.join('\n');
      return ok(more ? `${body}\n${READ_MORE(first, shownTo, s.lines)}` : body, display);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fail(FILE_NOT_FOUND(input));
      return fail(IO_ERROR('read', input, err));
    } finally {
      await handle.close();
    }
  },
});
