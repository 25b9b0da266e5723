// grep: a JavaScript regular expression over the files under a directory of the allowed
// roots (searchFiles.ts decides which: .gitignore honoured, .git/ and forbidden paths never
// opened), skipping binary files and files over GREP_MAX_FILE_BYTES. Files are read one at
// a time in short synchronous slices (searchFiles.ts says why); a file whose bytes cannot
// contain a literal pattern is not even decoded, and a file the pattern does not match as
// a whole is not split into lines.
import { isAbsolute, relative } from 'node:path';
import { z } from 'zod';
import type { GrepDisplay } from '../model/toolDisplay.js';
import { defineTool } from './defineTool.js';
import { ABORTED, describeConfinement } from './fileAccess.js';
import picomatch from 'picomatch';
import { requiredLiterals } from './requiredLiteral.js';
import { candidateFiles, readConfined, searchTarget, readRootFile, scratchFor, slicer, type SearchRoot } from './searchFiles.js';
import { invalidArgsMap, withoutNulls } from './toolArgs.js';
import { fail, ok, type ToolContext, type ToolResult } from './types.js';

export const GREP_DEFAULT_MAX_RESULTS = 200;
export const GREP_MAX_RESULTS = 2000;
export const GREP_MAX_CONTEXT = 20;
export const GREP_MAX_FILE_BYTES = 4 * 1024 * 1024;
export const GREP_LINE_CAP_CHARS = 500;
/** A NUL in the first this many bytes makes a file binary (git's rule of thumb). */
const BINARY_SNIFF_BYTES = 8000;

export const GREP_INVALID_REGEX = (pattern: string, message: string) => `Invalid regular expression '${pattern}': ${message}`;
export const GREP_NO_MATCHES = (pattern: string, p: string) => `No matches for '${pattern}' under '${p}'.`;
export const MORE_MATCHES = (n: number) => `[${n} more matches not shown]`;
export const GREP_LINE_CUT = ' [... line cut]';
export const GREP_BAD_GLOB = (glob: string) => `glob '${glob}' must be relative to the searched path (no leading '/' and no '..').`;

const OUTPUT_MODES = ['content', 'files_with_matches', 'count'] as const;
type OutputMode = (typeof OUTPUT_MODES)[number];

export const grepArgs = z.object({
  pattern: z.string().describe('A JavaScript regular expression, e.g. "function\\\\s+load" or "TODO".'),
  path: z.string().describe("File or directory to search, relative to the workspace or absolute (default '.').").optional(),
  glob: z.string().describe("Only files whose path matches, e.g. '*.ts' (any depth) or 'src/**/*.tsx'.").optional(),
  ignore_case: z.boolean().describe('Match letters of either case (default false).').optional(),
  context: z
    .number()
    .int()
    .min(0)
    .describe(`Lines shown before and after each match in content mode (default 0, at most ${GREP_MAX_CONTEXT}).`)
    .optional(),
  output_mode: z
    .enum(OUTPUT_MODES)
    .describe("'content' (default): path:line:text; 'files_with_matches': the paths only; 'count': path:count.")
    .optional(),
  max_results: z
    .number()
    .int()
    .min(1)
    .describe(`At most this many results: lines in content mode, files otherwise (default ${GREP_DEFAULT_MAX_RESULTS}).`)
    .optional(),
});

const USAGE =
  '{"pattern": string, "path"?: string, "glob"?: string, "ignore_case"?: boolean, "context"?: integer, "output_mode"?: "content" | "files_with_matches" | "count", "max_results"?: integer}';
const baseErrors = invalidArgsMap('grep', USAGE);

/** The regular expression, or why it is not one. 'u' first (so \p{L} and astral
 * characters work), plain where 'u' rejects what plain JavaScript accepts. */
export function compilePattern(pattern: string, ignoreCase: boolean): { ok: true; re: RegExp } | { ok: false; error: string } {
  const flags = ignoreCase ? 'i' : '';
  try {
    return { ok: true, re: new RegExp(pattern, `${flags}mu`) };
  } catch {
    try {
      return { ok: true, re: new RegExp(pattern, `${flags}m`) };
    } catch (err) {
      return { ok: false, error: GREP_INVALID_REGEX(pattern, (err as Error).message) };
    }
  }
}

/** Bytes every matching file must contain (requiredLiteral.ts); none under ignore_case. */
function literalsOf(pattern: string, ignoreCase: boolean): Buffer[] {
  if (ignoreCase) return [];
  return requiredLiterals(pattern).map((l) => Buffer.from(l, 'utf8'));
}

interface FileHits {
  /** 0-based numbers of the matching lines. */
  lines: number[];
  /** The lines content mode prints (the first matches shown and their context), already
   * cut; nothing is kept for matches past max_results, which are only counted. */
  text?: Map<number, string>;
  /** Lines in the file. */
  count: number;
}

function isBinary(buf: Buffer): boolean {
  const end = Math.min(buf.length, BINARY_SNIFF_BYTES);
  const nul = buf.indexOf(0);
  return nul !== -1 && nul < end;
}

const dollarCr = (re: RegExp) => re.source.includes('$');
const cut = (line: string) => (line.length > GREP_LINE_CAP_CHARS ? `${line.slice(0, GREP_LINE_CAP_CHARS)}${GREP_LINE_CUT}` : line);
const noCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

/** `keep`: how many of this file's matches will be printed, and with how much context. */
function searchText(buf: Buffer, re: RegExp, literals: Buffer[], keep: { room: number; context: number }): FileHits | undefined {
  for (const l of literals) if (buf.indexOf(l) === -1) return undefined;
  if (isBinary(buf)) return undefined;
  const text = buf.toString('utf8');
  // The whole text first, which is one native scan: a file it does not match has no
  // matching line. Not for a '$' in a CRLF file: '$' does not match before '\r', a line
  // without its '\r' does.
  if (!(dollarCr(re) && text.includes('\r')) && !re.test(text)) return undefined;
  const lines = text.split('\n');
  // The last "line" of a file ending in a newline is empty, not a line.
  const count = lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  const hits: number[] = [];
  for (let i = 0; i < count; i++) if (re.test(noCr(lines[i]))) hits.push(i);
  if (hits.length === 0) return undefined;
  if (keep.room <= 0) return { lines: hits, count };
  const kept = new Map<number, string>();
  for (const at of hits.slice(0, keep.room)) {
    for (let i = Math.max(0, at - keep.context); i <= Math.min(count - 1, at + keep.context); i++) {
      if (!kept.has(i)) kept.set(i, cut(noCr(lines[i])));
    }
  }
  return { lines: hits, count, text: kept };
}

/** Content-mode lines of one file: matches as path:N:text, context as path-N-text, groups
 * that do not touch separated by '--' (grep's format). Stops at `room` matches. */
function contentLines(path: string, hits: FileHits, context: number, room: number, out: string[], first: boolean): number {
  const text = hits.text ?? new Map<number, string>();
  const shown = hits.lines.slice(0, room);
  let printedTo = -1;
  for (const [k, at] of shown.entries()) {
    const from = Math.max(0, at - context, printedTo + 1);
    if (context > 0 && (k > 0 || !first) && from > printedTo + 1) out.push('--');
    for (let i = from; i < at; i++) out.push(`${path}-${i + 1}-${text.get(i) ?? ''}`);
    out.push(`${path}:${at + 1}:${text.get(at) ?? ''}`);
    printedTo = at;
    const next = shown[k + 1];
    const to = Math.min(hits.count - 1, at + context, next === undefined ? Number.POSITIVE_INFINITY : next - 1);
    for (let i = at + 1; i <= to; i++) {
      out.push(`${path}-${i + 1}-${text.get(i) ?? ''}`);
      printedTo = i;
    }
  }
  return shown.length;
}

/** How a result path is written: relative to the workspace when inside it. */
export function shownPath(ctx: ToolContext, root: SearchRoot, lexicalBase: string, rel: string): string {
  const abs = rel === '' ? lexicalBase : `${lexicalBase}/${rel}`;
  const fromCwd = relative(ctx.cwd, abs);
  return fromCwd !== '' && !fromCwd.startsWith('..') && !isAbsolute(fromCwd) ? fromCwd : abs || root.shown;
}

type NameFilter = (rel: string) => boolean;

function globFilter(glob: string | undefined): NameFilter | undefined | 'bad' {
  const g = glob?.trim().replace(/^(\.\/)+/, '');
  if (!g) return undefined;
  if (g.startsWith('/') || g.split('/').includes('..')) return 'bad';
  // A name pattern matches at any depth, as ripgrep's -g does.
  return picomatch(g.includes('/') ? g : `**/${g}`, { dot: true });
}

interface Found {
  rel: string;
  hits: FileHits;
}

function render(mode: OutputMode, found: Found[], name: (rel: string) => string, max: number, context: number) {
  const out: string[] = [];
  let shown = 0;
  let total = 0;
  for (const f of found) {
    if (mode === 'content') {
      total += f.hits.lines.length;
      if (shown < max) shown += contentLines(name(f.rel), f.hits, context, max - shown, out, out.length === 0);
    } else {
      total++;
      if (shown < max) {
        out.push(mode === 'count' ? `${name(f.rel)}:${f.hits.lines.length}` : name(f.rel));
        shown++;
      }
    }
  }
  return { out, shown, total };
}

export const grepTool = defineTool({
  name: 'grep',
  args: grepArgs,
  argsError: (issue) => {
    const key = issue.path?.[0];
    if (key === 'ignore_case') return `Invalid arguments for grep: 'ignore_case' must be true or false. Expected ${USAGE}.`;
    if (key === 'context' || key === 'max_results')
      return `Invalid arguments for grep: '${String(key)}' must be a non-negative integer. Expected ${USAGE}.`;
    if (key === 'output_mode')
      return `Invalid arguments for grep: 'output_mode' must be one of ${OUTPUT_MODES.join(', ')}. Expected ${USAGE}.`;
    return baseErrors(issue);
  },
  prepare: (raw) => withoutNulls(raw ?? {}),
  asksByDefault: false,
  description: (caller) =>
    `Search file contents with a JavaScript regular expression (default: under the workspace). ` +
    `Skips what .gitignore files ignore, .git/, binary files and files over ${GREP_MAX_FILE_BYTES / (1024 * 1024)} MiB. ` +
    `output_mode 'content' (default) gives path:line:text (with 'context' lines around, as path-line-text), ` +
    `'files_with_matches' the paths, 'count' path:count. At most ${GREP_DEFAULT_MAX_RESULTS} results unless max_results says otherwise. ` +
    `${describeConfinement(caller)}`,
  async run(args, ctx) {
    const compiled = compilePattern(args.pattern, args.ignore_case === true);
    if (!compiled.ok) return fail(compiled.error);
    const filter = globFilter(args.glob);
    if (filter === 'bad') return fail(GREP_BAD_GLOB(args.glob ?? ''));
    const target = await searchTarget(args.path, ctx);
    if (!target.ok) return fail(target.error);
    const { root } = target;
    try {
      return await search(args, ctx, root, target.lexical, compiled.re, filter);
    } finally {
      await root.handle.close();
    }
  },
});

type GrepArgs = z.output<typeof grepArgs>;

async function search(
  args: GrepArgs,
  ctx: ToolContext,
  root: SearchRoot,
  lexical: string,
  re: RegExp,
  filter: NameFilter | undefined,
): Promise<ToolResult> {
  const input = root.shown;
  const mode: OutputMode = args.output_mode ?? 'content';
  const context = mode === 'content' ? Math.min(args.context ?? 0, GREP_MAX_CONTEXT) : 0;
  const max = Math.min(args.max_results ?? GREP_DEFAULT_MAX_RESULTS, GREP_MAX_RESULTS);
  // A file path searches that one file, read through the descriptor the guard checked.
  const names = root.isFile ? [''] : (await candidateFiles(root)).filter((rel) => !filter || filter(rel));
  if (ctx.signal.aborted) return fail(ABORTED('grep'));
  const literals = literalsOf(args.pattern, args.ignore_case === true);
  const found: Found[] = [];
  const pause = slicer();
  const scratch = scratchFor(GREP_MAX_FILE_BYTES);
  let kept = 0;
  for (const rel of names) {
    const wait = pause();
    if (wait) await wait;
    if (ctx.signal.aborted) return fail(ABORTED('grep'));
    const buf = root.isFile ? readRootFile(root, scratch) : readConfined(root, rel, scratch);
    const room = mode === 'content' ? max - kept : 0;
    const hits = buf ? searchText(buf, re, literals, { room, context }) : undefined;
    if (hits) {
      found.push({ rel, hits });
      kept += Math.min(Math.max(room, 0), hits.lines.length);
    }
  }
  const name = (rel: string) => shownPath(ctx, root, lexical, rel);
  const { out, shown, total } = render(mode, found, name, max, context);
  const display: GrepDisplay = {
    kind: 'grep',
    pattern: args.pattern,
    path: input,
    mode,
    matches: found.reduce((n, f) => n + f.hits.lines.length, 0),
    files: found.length,
    searched: names.length,
    ...(total > shown ? { truncated: true } : {}),
  };
  if (found.length === 0) return ok(GREP_NO_MATCHES(args.pattern, input), display);
  const more = total - shown;
  return ok(more > 0 ? `${out.join('\n')}\n${MORE_MATCHES(more)}` : out.join('\n'), display);
}
