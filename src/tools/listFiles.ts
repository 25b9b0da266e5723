// list_files: a directory's entries, or the paths under it matching a glob (pathGlob.ts),
// walked through descriptors so a directory swapped for a symlink mid-walk is not entered.
import { readdir, type FileHandle } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { barriersOf } from './authority.js';
import { descriptorPath, openChildDirectory } from './confinedOpen.js';
import { defineTool } from './defineTool.js';
import { ABORTED, describeConfinement, guard, openChecked } from './fileAccess.js';
import { barrierAt, type Barrier } from './pathGuard.js';
import { compileGlob, type GlobMatcher } from './pathGlob.js';
import { invalidArgsMap, withoutNulls } from './toolArgs.js';
import { fail, ok } from './types.js';

export const LIST_CAP_ENTRIES = 500;
/** Directories a recursive listing skips unless the pattern names them. */
const NOISY_DIRS = ['.git', 'node_modules'];

export const DIR_NOT_FOUND = (p: string) => `Directory not found: '${p}'.`;
export const LIST_IS_FILE = (p: string) => `'${p}' is a file, not a directory; use read_file to read it.`;
export const NO_ENTRIES = (p: string) => `No entries in '${p}'.`;
export const NO_MATCHES = (p: string, pattern: string) => `No entries under '${p}' match '${pattern}'.`;
export const LIST_TRUNCATED = (cap: number) => `[truncated at ${cap} entries; narrow the path or pattern]`;
export const BAD_PATTERN = (pattern: string) =>
  `Pattern '${pattern}' must be relative to the listed directory (no leading '/' and no '..').`;

export const listFilesArgs = z.object({
  path: z.string().describe("Directory to list, relative to the workspace or absolute (default '.').").optional(),
  pattern: z.string().describe("Glob relative to the directory, e.g. '*.ts' or '**/*.md'.").optional(),
});

interface Walk {
  base: string;
  matcher: GlobMatcher;
  forbidden: Barrier[];
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
    if (barrierAt(abs, state.forbidden)) continue;
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

export const listFilesTool = defineTool({
  name: 'list_files',
  args: listFilesArgs,
  argsError: invalidArgsMap('list_files', '{"path"?: string, "pattern"?: string}'),
  /** No arguments at all means "list the workspace". */
  prepare: (raw) => withoutNulls(raw ?? {}),
  asksByDefault: false,
  description: (caller) =>
    `List a directory (default: the workspace). Directories end in '/'. Without a pattern, lists the directory's own entries. ` +
    `With a pattern, matches paths relative to that directory: '*.ts' (this directory only), '**/*.md' (any depth); ` +
    `supports *, ?, [abc], {a,b} and **. ${NOISY_DIRS.join(' and ')} are not searched unless the pattern names them. ` +
    `At most ${LIST_CAP_ENTRIES} entries are returned. ${describeConfinement(caller)}`,
  async run(args, ctx) {
    const input = args.path && args.path.trim() !== '' ? args.path : '.';
    const rawPattern = args.pattern?.trim() || undefined;
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
    const state: Walk = {
      base: guarded.path,
      // Without a pattern: this directory's own entries, i.e. exactly one path segment.
      matcher: compileGlob(pattern ?? '*'),
      forbidden: barriersOf(ctx.caller, ctx.cwd),
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
    const display = {
      kind: 'list' as const,
      path: input,
      ...(pattern !== undefined ? { pattern } : {}),
      entries: state.out.length,
      ...(state.overflow ? { truncated: true } : {}),
    };
    if (state.out.length === 0) return ok(pattern === undefined ? NO_ENTRIES(input) : NO_MATCHES(input, pattern), display);
    const lines = state.out.join('\n');
    return ok(state.overflow ? `${lines}\n${LIST_TRUNCATED(LIST_CAP_ENTRIES)}` : lines, display);
  },
});
