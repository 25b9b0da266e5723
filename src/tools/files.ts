// read_file, write_file and list_files. Every path goes through the path guard with the
// caller's allowed_roots / forbidden_paths (and those of every bounded ceiling above it), and every call counts as one action first.
// Results and errors are read by the model, so their text is fixed English.
import { mkdir, readdir, type FileHandle } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolSpec } from '../providers/types.js';
import { confinePath, forbiddenPathsOf } from './authority.js';
import { NOT_REGULAR, descriptorPath, openChildDirectory, openForRead, openForWrite, type Opened } from './confinedOpen.js';
import { PATH_SYMLINK_LOOP, isInside, realpathLoose, resolveConfigPath } from './pathGuard.js';
import { parseListFilesArgs, parseReadFileArgs, parseWriteFileArgs, listFilesArgs, readFileArgs, writeFileArgs } from './fileArgs.js';
import { modelParameters } from './toolArgs.js';
import { fail, ok, type Tool, type ToolCaller, type ToolContext, type ToolResult } from './types.js';

export const READ_CAP_BYTES = 64 * 1024;
export const LIST_CAP_ENTRIES = 500;
/** Directories a recursive listing skips unless the pattern names them. */
const NOISY_DIRS = ['.git', 'node_modules'];

/** Kept here too: callers have imported it from files.ts. */
export { INVALID_ARGS } from './toolArgs.js';
export const FILE_NOT_FOUND = (p: string) => `File not found: '${p}'.`;
export const DIR_NOT_FOUND = (p: string) => `Directory not found: '${p}'.`;
export const READ_IS_DIRECTORY = (p: string) => `'${p}' is a directory; use list_files to see its entries.`;
export const LIST_IS_FILE = (p: string) => `'${p}' is a file, not a directory; use read_file to read it.`;
export const BINARY_FILE = (p: string, bytes: number) => `'${p}' looks like a binary file (${bytes} bytes); not shown.`;
export const EMPTY_FILE = (p: string) => `(empty file: '${p}')`;
export const READ_TRUNCATED = (p: string, shown: number, total: number) =>
  `[truncated: showed the first ${shown} of ${total} bytes of '${p}']`;
export const WROTE_FILE = (p: string, bytes: number) => `Wrote ${bytes} bytes to '${p}'.`;
export const IO_ERROR = (action: string, p: string, err: unknown) => `Could not ${action} '${p}': ${(err as Error).message ?? String(err)}`;
export const NO_ENTRIES = (p: string) => `No entries in '${p}'.`;
export const NO_MATCHES = (p: string, pattern: string) => `No entries under '${p}' match '${pattern}'.`;
export const LIST_TRUNCATED = (cap: number) => `[truncated at ${cap} entries; narrow the path or pattern]`;
export const BAD_PATTERN = (pattern: string) =>
  `Pattern '${pattern}' must be relative to the listed directory (no leading '/' and no '..').`;
export const ABORTED = (tool: string) => `${tool} was aborted.`;

/** The path guard under the caller's whole authority (its profile and every ceiling). */
function guard(input: string, ctx: ToolContext, forWrite = false) {
  return confinePath(input, ctx.cwd, ctx.caller, forWrite);
}

/** Opens the real path the guard checked and verifies the descriptor (confinedOpen.ts). */
async function openChecked(input: string, lexical: string, ctx: ToolContext, action: 'read' | 'list'): Promise<Opened> {
  let checked: string;
  try {
    checked = realpathLoose(lexical);
  } catch {
    return { ok: false, error: PATH_SYMLINK_LOOP(input) };
  }
  const opened = await openForRead(checked, input, (where) => guard(where, ctx));
  if (!opened.ok && opened.code !== undefined && opened.code !== 'ENOENT') {
    return { ...opened, error: IO_ERROR(action, input, new Error(opened.error)) };
  }
  return opened;
}

/** The confinement rules in words, for tool descriptions. */
export function describeConfinement(caller: ToolCaller): string {
  const { allowed_roots: roots } = caller.risk;
  const forbidden = [...new Set(forbiddenPathsOf(caller))];
  const rootText = roots.length > 0 ? `inside the allowed roots (${roots.join(', ')})` : 'nowhere: no allowed roots are configured';
  // A bounded ceiling narrows the roots further; say so, so the model does not try paths
  // its caller never allowed.
  const ceilingRoots = (caller.ceilings ?? []).map((c) => c.allowed_roots.join(', '));
  const ceilingText = ceilingRoots.length > 0 ? ` and also inside ${ceilingRoots.map((r) => `(${r})`).join(' and ')}` : '';
  const forbiddenText = forbidden.length > 0 ? `; these paths are forbidden: ${forbidden.join(', ')}` : '';
  return `Relative paths resolve against the workspace. Only paths ${rootText}${ceilingText} are reachable${forbiddenText}; '..' escapes and symlinks leaving the roots are refused.`;
}

/** Backs off from a cut inside a multi-byte UTF-8 character. */
function utf8Boundary(buf: Buffer, end: number): number {
  let i = end;
  while (i > 0 && i < buf.length && (buf[i] & 0xc0) === 0x80) i--;
  return i;
}

export const readFileTool: Tool = {
  name: 'read_file',
  asksByDefault: false,
  spec(caller): ToolSpec {
    return {
      name: 'read_file',
      description: `Read a UTF-8 text file. ${describeConfinement(caller)} Output is capped at ${READ_CAP_BYTES / 1024} KiB; longer files are truncated with a note.`,
      parameters: modelParameters(readFileArgs),
    };
  },
  async run(args, ctx): Promise<ToolResult> {
    const limited = ctx.tracker.recordAction();
    if (limited) return fail(limited);
    const parsed = parseReadFileArgs(args);
    if (!parsed.ok) return fail(parsed.error);
    const input = parsed.args.path;
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
      if (bytesRead === 0) return ok(EMPTY_FILE(input));
      if (bytesRead <= READ_CAP_BYTES) return ok(chunk.toString('utf8'));
      const cut = utf8Boundary(buf, READ_CAP_BYTES);
      const text = chunk.subarray(0, cut).toString('utf8');
      const size = Math.max(st.size, bytesRead);
      return ok(`${text}\n\n${READ_TRUNCATED(input, cut, size)}`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fail(FILE_NOT_FOUND(input));
      return fail(IO_ERROR('read', input, err));
    } finally {
      await handle.close();
    }
  },
};

export const writeFileTool: Tool = {
  name: 'write_file',
  asksByDefault: true,
  spec(caller): ToolSpec {
    return {
      name: 'write_file',
      description: `Create or overwrite a UTF-8 text file with the given content, creating missing parent directories. ${describeConfinement(caller)}`,
      parameters: modelParameters(writeFileArgs),
    };
  },
  async run(args, ctx): Promise<ToolResult> {
    const limited = ctx.tracker.recordAction();
    if (limited) return fail(limited);
    const parsed = parseWriteFileArgs(args);
    if (!parsed.ok) return fail(parsed.error);
    const { path: input, content } = parsed.args;
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
    try {
      // Truncated only now: a refused open never damaged anything.
      await opened.handle.truncate(0);
      await opened.handle.writeFile(content, 'utf8');
    } catch (err) {
      return fail(IO_ERROR('write', input, err));
    } finally {
      await opened.handle.close();
    }
    return ok(WROTE_FILE(input, Buffer.byteLength(content, 'utf8')));
  },
};

// A small glob matcher (Node 20 has no path.matchesGlob). Patterns are '/'-separated
// segments; '**' spans any number of segments, '*' and '?' stay within one, and '[abc]',
// '[!abc]' and '{a,b}' work as in the shell. '*' also matches dotfiles: the model should
// see everything it may read.
export interface GlobMatcher {
  matches(relPath: string): boolean;
  /** Whether some path below `relDir` could still match, so the walk may prune. */
  couldMatchBelow(relDir: string): boolean;
  /** Whether a literal segment of the pattern contains `name`. */
  mentions(name: string): boolean;
}

const GLOBSTAR = Symbol('globstar');
type Segment = RegExp | typeof GLOBSTAR;

function segmentRegExp(seg: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close === -1) re += '\\[';
      else {
        let body = seg.slice(i + 1, close);
        const negate = body.startsWith('!') || body.startsWith('^');
        if (negate) body = body.slice(1);
        re += `[${negate ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
        i = close;
      }
    } else if (c === '{' && seg.indexOf('}', i) !== -1) {
      braces++;
      re += '(?:';
    } else if (c === ',' && braces > 0) re += '|';
    else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else re += c.replace(/[.+^$()|{}\\[\]\\]/g, '\\$&');
  }
  re += ')'.repeat(braces);
  return new RegExp(`^${re}$`);
}

function matchSegments(pattern: Segment[], pi: number, path: string[], si: number, partial: boolean): boolean {
  if (si === path.length) {
    // The path ran out: a full match needs only '**' left; a prefix match needs anything left.
    return partial ? pi < pattern.length : pattern.slice(pi).every((p) => p === GLOBSTAR);
  }
  if (pi === pattern.length) return false;
  const seg = pattern[pi];
  if (seg === GLOBSTAR) {
    return matchSegments(pattern, pi + 1, path, si, partial) || matchSegments(pattern, pi, path, si + 1, partial);
  }
  return seg.test(path[si]) && matchSegments(pattern, pi + 1, path, si + 1, partial);
}

export function compileGlob(pattern: string): GlobMatcher {
  const raw = pattern.split('/').filter((s) => s !== '' && s !== '.');
  const segments: Segment[] = raw.map((s) => (s === '**' ? GLOBSTAR : segmentRegExp(s)));
  return {
    matches: (relPath) => matchSegments(segments, 0, relPath.split('/'), 0, false),
    couldMatchBelow: (relDir) => matchSegments(segments, 0, relDir.split('/'), 0, true),
    mentions: (name) => raw.some((s) => s !== '**' && s.includes(name)),
  };
}

interface Walk {
  base: string;
  matcher: GlobMatcher;
  forbidden: string[];
  signal: AbortSignal;
  out: string[];
  /** Set once more than the cap was found; the walk stops there. */
  overflow: boolean;
}

/** The entries of the directory open as `dir` (read through its descriptor on Linux). */
async function entriesOf(dir: FileHandle, path: string): Promise<Dirent[]> {
  const entries = await readdir(descriptorPath(dir.fd) ?? path, { withFileTypes: true });
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function walk(state: Walk, rel: string, dir: FileHandle): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await entriesOf(dir, rel ? join(state.base, rel) : state.base);
  } catch {
    return; // An unreadable subdirectory is skipped, not fatal for the listing.
  }
  for (const entry of entries) {
    if (state.overflow || state.signal.aborted) return;
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    const abs = join(state.base, relPath);
    if (state.forbidden.some((f) => isInside(abs, f))) continue;
    const isDir = entry.isDirectory();
    if (state.matcher.matches(relPath)) {
      if (state.out.length >= LIST_CAP_ENTRIES) {
        state.overflow = true;
        return;
      }
      state.out.push(isDir ? `${relPath}/` : relPath);
    }
    // Symlinked directories are listed but not entered: no loops, no leaving the roots.
    const noisy = NOISY_DIRS.includes(entry.name) && !state.matcher.mentions(entry.name);
    if (isDir && !noisy && state.matcher.couldMatchBelow(relPath)) {
      // Opened relative to this directory without following a link: a subdirectory swapped
      // for a symlink mid-walk is skipped, not entered.
      const child = await openChildDirectory(dir.fd, entry.name, abs);
      if (!child) continue;
      try {
        await walk(state, relPath, child);
      } finally {
        await child.close();
      }
    }
  }
}

export const listFilesTool: Tool = {
  name: 'list_files',
  asksByDefault: false,
  spec(caller): ToolSpec {
    return {
      name: 'list_files',
      description:
        `List a directory (default: the workspace). Directories end in '/'. Without a pattern, lists the directory's own entries. ` +
        `With a pattern, matches paths relative to that directory: '*.ts' (this directory only), '**/*.md' (any depth); ` +
        `supports *, ?, [abc], {a,b} and **. ${NOISY_DIRS.join(' and ')} are not searched unless the pattern names them. ` +
        `At most ${LIST_CAP_ENTRIES} entries are returned. ${describeConfinement(caller)}`,
      parameters: modelParameters(listFilesArgs),
    };
  },
  async run(args, ctx): Promise<ToolResult> {
    const limited = ctx.tracker.recordAction();
    if (limited) return fail(limited);
    const parsed = parseListFilesArgs(args);
    if (!parsed.ok) return fail(parsed.error);
    const input = parsed.args.path && parsed.args.path.trim() !== '' ? parsed.args.path : '.';
    const rawPattern = parsed.args.pattern?.trim() || undefined;
    const pattern = rawPattern?.replace(/^(\.\/)+/, '');
    if (pattern !== undefined && (pattern.startsWith('/') || pattern.split('/').includes('..'))) {
      return fail(BAD_PATTERN(rawPattern as string));
    }
    const guarded = guard(input, ctx);
    if (!guarded.ok) return fail(guarded.error);
    const opened = await openChecked(input, guarded.path, ctx, 'list');
    if (!opened.ok) return fail(opened.code === 'ENOENT' ? DIR_NOT_FOUND(input) : opened.error);
    if (!opened.stat.isDirectory()) {
      await opened.handle.close();
      return fail(LIST_IS_FILE(input));
    }
    const home = homedir();
    const state: Walk = {
      base: guarded.path,
      // Without a pattern: this directory's own entries, i.e. exactly one path segment.
      matcher: compileGlob(pattern ?? '*'),
      forbidden: forbiddenPathsOf(ctx.caller).map((f) => resolveConfigPath(f, ctx.cwd, home)),
      signal: ctx.signal,
      out: [],
      overflow: false,
    };
    try {
      await walk(state, '', opened.handle);
    } finally {
      await opened.handle.close();
    }
    if (ctx.signal.aborted) return fail(ABORTED('list_files'));
    if (state.out.length === 0) return ok(pattern === undefined ? NO_ENTRIES(input) : NO_MATCHES(input, pattern));
    const lines = state.out.join('\n');
    return ok(state.overflow ? `${lines}\n${LIST_TRUNCATED(LIST_CAP_ENTRIES)}` : lines);
  },
};
