// edit_file: exact string replacements in an existing UTF-8 text file. Every edit is
// applied in order in memory (editApply.ts) and the file is written once, through the same
// confined, symlink-safe descriptor it was read from (confinedOpen.ts): all edits or none.
// Its display is the diff of the change; `preview` computes that diff without writing, for
// the approval prompt.
import { isAscii, isUtf8 } from 'node:buffer';
import { ftruncateSync, readFileSync, writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import type { DiffDisplay } from '../model/toolDisplay.js';
import { DIFF_CONTEXT_LINES, fileDiff } from '../text/diff.js';
import { NOT_REGULAR, openForWrite } from './confinedOpen.js';
import { defineTool } from './defineTool.js';
import { applyEdits, type Edit } from './editApply.js';
import { describeConfinement, filePath, guard, IO_ERROR, openChecked } from './fileAccess.js';
import { PATH_SYMLINK_LOOP, realpathLoose } from './pathGuard.js';
import { FILE_NOT_FOUND, READ_IS_DIRECTORY } from './readFile.js';
import { INVALID_ARGS, invalidArgsMap, type ArgsErrorMap } from './toolArgs.js';
import { fail, ok, type ToolContext } from './types.js';

/** Larger files are not edited in memory; write_file or shell can still change them. */
export const EDIT_MAX_BYTES = 64 * 1024 * 1024;

const USAGE = '{"path": string, "old_string": string, "new_string": string, "replace_all"?: boolean} or {"path": string, "edits": [...]}';
export const EDIT_SHAPE = INVALID_ARGS(
  'edit_file',
  "give either 'old_string' and 'new_string', or 'edits' (a non-empty list of {old_string, new_string, replace_all?}), not both",
  USAGE,
);
export const EDITED_FILE = (p: string, replacements: number, d: Pick<DiffDisplay, 'added' | 'removed'>) =>
  `Edited '${p}': ${replacements} replacement${replacements === 1 ? '' : 's'} (+${d.added} -${d.removed} lines).`;
export const EDIT_TOO_LARGE = (p: string, bytes: number) =>
  `'${p}' is ${bytes} bytes, over edit_file's limit of ${EDIT_MAX_BYTES} bytes; not edited.`;
export const EDIT_BINARY = (p: string) => `'${p}' looks like a binary file; edit_file changes UTF-8 text files only.`;
export const EDIT_NOT_UTF8 = (p: string) => `'${p}' is not valid UTF-8 text; edit_file changes UTF-8 text files only.`;
export const EDIT_UNREADABLE = (p: string) => `'${p}' can be written but not read, so it cannot be edited.`;

const editShape = {
  old_string: z.string().describe('The exact text to replace, including its indentation and enough surrounding lines to be unique.'),
  new_string: z.string().describe('The text to put in its place.'),
  replace_all: z.boolean().describe('Replace every occurrence instead of requiring exactly one (default false).').optional(),
};

export const editFileArgs = z.object({
  path: filePath,
  ...editShape,
  old_string: editShape.old_string.optional(),
  new_string: editShape.new_string.optional(),
  edits: z
    .array(z.object(editShape))
    .describe('Several edits applied in order, each to the result of the one before; all are written, or none.')
    .optional(),
});

type EditArgs = z.output<typeof editFileArgs>;

const errorMap: ArgsErrorMap = (issue) => {
  const key = issue.path?.[0];
  if (key === 'replace_all' || issue.path?.[2] === 'replace_all') {
    return INVALID_ARGS('edit_file', "'replace_all' must be true or false", USAGE);
  }
  if (key === 'edits') return EDIT_SHAPE;
  return invalidArgsMap('edit_file', USAGE)(issue);
};

/** The edits a call asks for, or undefined when it gives both forms or neither. */
function editsOf(args: EditArgs): Edit[] | undefined {
  const single = args.old_string !== undefined || args.new_string !== undefined || args.replace_all !== undefined;
  if (args.edits !== undefined) return single || args.edits.length === 0 ? undefined : args.edits;
  if (args.old_string === undefined || args.new_string === undefined) return undefined;
  return [{ old_string: args.old_string, new_string: args.new_string, replace_all: args.replace_all }];
}

/** The file's text, or why it is not text edit_file may change. Read, checked and decoded
 * with the native helpers (isAscii/isUtf8 are SIMD scans; an ASCII file decodes as a
 * byte-for-byte copy), synchronously: one file, and a 10 MB one must edit in well under
 * 100 ms on a busy machine. */
function textOf(
  handle: FileHandle,
  size: number,
  input: string,
): { ok: true; text: string; ascii: boolean } | { ok: false; error: string } {
  if (size > EDIT_MAX_BYTES) return { ok: false, error: EDIT_TOO_LARGE(input, size) };
  const buf = readFileSync(handle.fd);
  if (buf.length > EDIT_MAX_BYTES) return { ok: false, error: EDIT_TOO_LARGE(input, buf.length) };
  if (buf.includes(0)) return { ok: false, error: EDIT_BINARY(input) };
  if (isAscii(buf)) return { ok: true, text: buf.toString('latin1'), ascii: true };
  if (!isUtf8(buf)) return { ok: false, error: EDIT_NOT_UTF8(input) };
  return { ok: true, text: buf.toString('utf8'), ascii: false };
}

/** No character past U+007F: the text's UTF-8 is its Latin-1. */
function isAsciiText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Writes `text` over the whole file (positional writes: the read moved the position). */
function writeAll(handle: FileHandle, text: string, ascii: boolean): void {
  const data = Buffer.from(text, ascii ? 'latin1' : 'utf8');
  ftruncateSync(handle.fd, 0);
  let at = 0;
  while (at < data.length) at += writeSync(handle.fd, data, at, data.length - at, at);
}

/** Lines of context taken around the changed part (the diff shows DIFF_CONTEXT_LINES). */
const WINDOW_CONTEXT_LINES = DIFF_CONTEXT_LINES + 1;

/** fileDiff of only the changed part, with the file's line numbers: `head`/`tail`
 * characters at either end are the same in both, so only the lines between them (and
 * their context) are diffed. A one-line edit in a 10 MB file diffs a few lines. */
export function windowedDiff(path: string, before: string, after: string, head: number, tail: number): DiffDisplay {
  const keep = Math.min(head, tail, before.length, after.length);
  if (keep === 0 && head + tail === 0) return fileDiff(path, before, after);
  let start = Math.min(head, before.length, after.length);
  start = start === 0 ? 0 : before.lastIndexOf('\n', start - 1) + 1;
  for (let k = 0; k < WINDOW_CONTEXT_LINES && start > 0; k++) start = before.lastIndexOf('\n', start - 2) + 1;
  let end = before.length - Math.min(tail, before.length - start, after.length - start);
  for (let k = 0; k <= WINDOW_CONTEXT_LINES && end < before.length; k++) {
    const nl = before.indexOf('\n', end);
    end = nl === -1 ? before.length : nl + 1;
  }
  const cutEnd = before.length - end;
  const d = fileDiff(path, before.slice(start, end), after.slice(start, after.length - cutEnd));
  let offset = 0;
  for (let i = before.indexOf('\n'); i !== -1 && i < start; i = before.indexOf('\n', i + 1)) offset++;
  const { created: _created, ...rest } = d;
  return { ...rest, hunks: d.hunks.map((h) => ({ ...h, oldStart: h.oldStart + offset, newStart: h.newStart + offset })) };
}

/** The change the call would make: the edited text and its diff, read through `handle`. */
function planned(handle: FileHandle, size: number, input: string, edits: Edit[]) {
  const read = textOf(handle, size, input);
  if (!read.ok) return read;
  const applied = applyEdits(read.text, edits, input);
  if (!applied.ok) return applied;
  // An ASCII file edited with ASCII text is still ASCII: encoded as a plain copy.
  const ascii = read.ascii && edits.every((e) => isAsciiText(e.new_string));
  return {
    ok: true as const,
    text: applied.text,
    ascii,
    replacements: applied.replacements,
    display: windowedDiff(input, read.text, applied.text, applied.head, applied.tail),
  };
}

async function preview(args: EditArgs, ctx: ToolContext): Promise<DiffDisplay | undefined> {
  const edits = editsOf(args);
  if (!edits) return undefined;
  const guarded = guard(args.path, ctx, true);
  if (!guarded.ok) return undefined;
  const opened = await openChecked(args.path, guarded.path, ctx, 'read');
  if (!opened.ok) return undefined;
  try {
    if (!opened.stat.isFile()) return undefined;
    const plan = planned(opened.handle, opened.stat.size, args.path, edits);
    return plan.ok ? plan.display : undefined;
  } finally {
    await opened.handle.close();
  }
}

export const editFileTool = defineTool({
  name: 'edit_file',
  args: editFileArgs,
  argsError: errorMap,
  asksByDefault: true,
  description: (caller) =>
    `Replace exact text in an existing UTF-8 text file: old_string must match the file exactly (whitespace included) and be unique unless replace_all is set. ` +
    `For several changes in one file pass edits: [{old_string, new_string, replace_all?}, ...]; they apply in order and are written together, or not at all. ` +
    `Read the file first (read_file) and copy old_string from it without the line-number prefix. Line endings and a final newline are kept. ` +
    `${describeConfinement(caller)}`,
  async run(args, ctx) {
    const input = args.path;
    const edits = editsOf(args);
    if (!edits) return fail(EDIT_SHAPE);
    const guarded = guard(input, ctx, true);
    if (!guarded.ok) return fail(guarded.error);
    let checked: string;
    try {
      checked = realpathLoose(guarded.path);
    } catch {
      return fail(PATH_SYMLINK_LOOP(input));
    }
    const opened = await openForWrite(checked, input, (where) => guard(where, ctx, true), { create: false });
    if (!opened.ok) {
      if (opened.code === 'ENOENT') return fail(FILE_NOT_FOUND(input));
      if (opened.code === 'EISDIR') return fail(READ_IS_DIRECTORY(input));
      return fail(opened.code ? IO_ERROR('edit', input, new Error(opened.error)) : opened.error);
    }
    const { handle } = opened;
    try {
      if (!opened.stat.isFile()) return fail(NOT_REGULAR(input));
      if (!opened.readable) return fail(EDIT_UNREADABLE(input));
      const plan = planned(handle, opened.stat.size, input, edits);
      if (!plan.ok) return fail(plan.error);
      writeAll(handle, plan.text, plan.ascii);
      return ok(EDITED_FILE(input, plan.replacements, plan.display), plan.display);
    } catch (err) {
      return fail(IO_ERROR('edit', input, err));
    } finally {
      await handle.close();
    }
  },
  preview,
});
