// write_file: creates or replaces a UTF-8 text file through the confined, symlink-safe
// open. Its display is the diff of the change: the old content is read through the same
// checked descriptor just before it is replaced, so the diff is of the file really written.
import { mkdir, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { DiffDisplay } from '../model/toolDisplay.js';
import { fileDiff } from '../text/diff.js';
import { openForRead, openForWrite } from './confinedOpen.js';
import { defineTool } from './defineTool.js';
import { describeConfinement, filePath, guard, IO_ERROR } from './fileAccess.js';
import { realpathLoose } from './pathGuard.js';
import { invalidArgsMap } from './toolArgs.js';
import { fail, ok, type ToolContext } from './types.js';

export const WROTE_FILE = (p: string, bytes: number) => `Wrote ${bytes} bytes to '${p}'.`;

/** A file larger than this is replaced without reading it for the diff first. */
export const WRITE_DIFF_MAX_BYTES = 16 * 1024 * 1024;

export const writeFileArgs = z.object({
  path: filePath,
  content: z.string().describe('The complete new content of the file.'),
});

async function previousContent(handle: FileHandle, size: number): Promise<string | undefined> {
  if (size > WRITE_DIFF_MAX_BYTES) return undefined;
  const buf = Buffer.alloc(size);
  let at = 0;
  while (at < size) {
    const { bytesRead } = await handle.read(buf, at, size - at, at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return buf.subarray(0, at).toString('utf8');
}

/** What the diff says when the old content could not be read (too large, write-only):
 * the new lines, and nothing claimed about what was removed. */
function unreadDiff(path: string, content: string): DiffDisplay {
  const added = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  return { kind: 'diff', path, hunks: [], added, removed: 0, truncated: true };
}

/** What the write would change, read through the same guard and no-follow open as the write
 * itself, without opening anything for writing: undefined where the write would be refused
 * (run says why). */
async function previewWrite(input: string, content: string, ctx: ToolContext): Promise<DiffDisplay | undefined> {
  const guarded = guard(input, ctx, true);
  if (!guarded.ok) return undefined;
  let checked: string;
  try {
    checked = realpathLoose(guarded.path);
  } catch {
    return undefined;
  }
  const opened = await openForRead(checked, input, (where) => guard(where, ctx, true));
  if (!opened.ok) {
    if (opened.code === 'ENOENT') return fileDiff(input, undefined, content);
    // Writable but not readable: replaced unseen, as run's display says too.
    return opened.code === 'EACCES' ? unreadDiff(input, content) : undefined;
  }
  try {
    if (!opened.stat.isFile()) return undefined;
    const before = await previousContent(opened.handle, opened.stat.size);
    return before === undefined ? unreadDiff(input, content) : fileDiff(input, before, content);
  } finally {
    await opened.handle.close();
  }
}

export const writeFileTool = defineTool({
  name: 'write_file',
  args: writeFileArgs,
  argsError: invalidArgsMap('write_file', '{"path": string, "content": string}'),
  asksByDefault: true,
  description: (caller) =>
    `Create or overwrite a UTF-8 text file with the given content, creating missing parent directories. ${describeConfinement(caller)}`,
  async run({ path: input, content }, ctx) {
    const guarded = guard(input, ctx, true);
    if (!guarded.ok) return fail(guarded.error);
    let checked: string;
    try {
      checked = realpathLoose(guarded.path);
      // The guard checked the nearest existing ancestor, so every directory created here
      // is inside a root.
      await mkdir(dirname(checked), { recursive: true });
    } catch (err) {
      return fail(IO_ERROR('write', input, err));
    }
    const opened = await openForWrite(checked, input, (where) => guard(where, ctx, true));
    if (!opened.ok) return fail(opened.code ? IO_ERROR('write', input, new Error(opened.error)) : opened.error);
    let display: DiffDisplay;
    try {
      const before = opened.created ? undefined : opened.readable ? await previousContent(opened.handle, opened.stat.size) : undefined;
      display = !opened.created && before === undefined ? unreadDiff(input, content) : fileDiff(input, before, content);
      // Truncated only now: a refused open never damaged anything.
      await opened.handle.truncate(0);
      await opened.handle.writeFile(content, 'utf8');
    } catch (err) {
      return fail(IO_ERROR('write', input, err));
    } finally {
      await opened.handle.close();
    }
    return ok(WROTE_FILE(input, Buffer.byteLength(content, 'utf8')), display);
  },
  preview: ({ path, content }, ctx) => previewWrite(path, content, ctx),
});
