// grep: a JavaScript regular expression over the files under a directory of the allowed
// roots (searchFiles.ts decides which: .gitignore honoured, .git/ and forbidden paths never
// opened), skipping binary files and files over GREP_MAX_FILE_BYTES. The files are read and
// matched in worker threads (grepPool.ts, grepWorker.ts): a pattern that backtracks without
// end stops at a time limit instead of freezing the main thread, and every core searches.
// A file whose bytes cannot contain a literal pattern is not even decoded, and a file the
// pattern does not match as a whole is not split into lines.
import { isAbsolute, relative } from 'node:path';
import { z } from 'zod';
import type { GrepDisplay } from '../model/toolDisplay.js';
import { defineTool } from './defineTool.js';
import { ABORTED, describeConfinement } from './fileAccess.js';
import picomatch from 'picomatch';
import { rareByteAt, requiredLiterals } from './requiredLiteral.js';
import { GrepPool, type GrepSpec, type PoolResult } from './grepPool.js';
import type { WireHits } from './grepWorker.js';
import { candidateParts, searchTarget, type SearchRoot } from './searchFiles.js';
import { invalidArgsMap, withoutNulls } from './toolArgs.js';
import { fail, ok, type ToolContext, type ToolResult } from './types.js';

export const GREP_DEFAULT_MAX_RESULTS = 200;
export const GREP_MAX_RESULTS = 2000;
export const GREP_MAX_CONTEXT = 20;
export const GREP_MAX_FILE_BYTES = 4 * 1024 * 1024;
export const GREP_LINE_CAP_CHARS = 500;
/** A NUL in the first this many bytes makes a file binary (git's rule of thumb). */
const BINARY_SNIFF_BYTES = 8000;

let sharedPool: GrepPool | undefined;
/** The threads every grep in this process shares, started on first use. */
function pool(): GrepPool {
  sharedPool ??= new GrepPool({
    maxBytes: GREP_MAX_FILE_BYTES,
    sniffBytes: BINARY_SNIFF_BYTES,
    lineCap: GREP_LINE_CAP_CHARS,
    lineCut: GREP_LINE_CUT,
  });
  return sharedPool;
}

export const GREP_INVALID_REGEX = (pattern: string, message: string) => `Invalid regular expression '${pattern}': ${message}`;
export const GREP_NO_MATCHES = (pattern: string, p: string) => `No matches for '${pattern}' under '${p}'.`;
export const MORE_MATCHES = (n: number) => `[${n} more matches not shown]`;
export const GREP_LINE_CUT = ' [... line cut]';
/** A thread that has started no new file for this long is stuck in one (in practice the
 * pattern backtracks without end over some line): the search is stopped. */
export const GREP_FILE_TIME_LIMIT_MS = 10_000;
export const GREP_TOO_SLOW = (pattern: string, file: string, ms: number) =>
  `grep stopped: the pattern '${pattern}' ran for over ${ms / 1000} s on one file (${file}) without finishing, ` +
  `so it most likely backtracks without end (nested quantifiers such as (a+)+). Simplify the pattern or narrow path or glob.`;
export const GREP_FAILED = (pattern: string, message: string) => `grep '${pattern}' failed: ${message}`;
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
function literalsOf(pattern: string, ignoreCase: boolean): Array<{ text: string; rare: number }> {
  return ignoreCase ? [] : requiredLiterals(pattern).map((text) => ({ text, rare: rareByteAt(text) }));
}

/** Content-mode lines of one file: matches as path:N:text, context as path-N-text, groups
 * that do not touch separated by '--' (grep's format). Stops at `room` matches. */
function contentLines(path: string, hits: WireHits, context: number, room: number, out: string[], first: boolean): number {
  const text = new Map(hits.text ?? []);
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

function render(mode: OutputMode, found: WireHits[], name: (rel: string) => string, max: number, context: number) {
  const out: string[] = [];
  let shown = 0;
  let total = 0;
  for (const f of found) {
    if (mode === 'content') {
      total += f.lines.length;
      if (shown < max) shown += contentLines(name(f.rel), f, context, max - shown, out, out.length === 0);
    } else {
      total++;
      if (shown < max) {
        out.push(mode === 'count' ? `${name(f.rel)}:${f.lines.length}` : name(f.rel));
        shown++;
      }
    }
  }
  return { out, shown, total };
}

export interface GrepOptions {
  /** See GREP_FILE_TIME_LIMIT_MS (tests shorten it). */
  fileTimeLimitMs: number;
}

export const grepTool = makeGrepTool({ fileTimeLimitMs: GREP_FILE_TIME_LIMIT_MS });

export function makeGrepTool(opts: GrepOptions) {
  return defineTool({
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
        return await search(args, ctx, root, target.lexical, compiled.re, filter, opts);
      } finally {
        await root.handle.close();
      }
    },
  });
}

type GrepArgs = z.output<typeof grepArgs>;

async function search(
  args: GrepArgs,
  ctx: ToolContext,
  root: SearchRoot,
  lexical: string,
  re: RegExp,
  filter: NameFilter | undefined,
  opts: GrepOptions,
): Promise<ToolResult> {
  const input = root.shown;
  const mode: OutputMode = args.output_mode ?? 'content';
  const context = mode === 'content' ? Math.min(args.context ?? 0, GREP_MAX_CONTEXT) : 0;
  const max = Math.min(args.max_results ?? GREP_DEFAULT_MAX_RESULTS, GREP_MAX_RESULTS);
  const spec: GrepSpec = {
    real: root.real,
    fd: root.isFile ? root.handle.fd : -1,
    forbidden: root.forbidden,
    source: re.source,
    flags: re.flags,
    literals: literalsOf(args.pattern, args.ignore_case === true),
    room: mode === 'content' ? max : 0,
    context,
  };
  // A file path searches that one file, read through the descriptor the guard checked.
  // Each part of the listing is searched as soon as git gives it (searchFiles.ts).
  const parts = root.isFile ? [Promise.resolve([''])] : candidateParts(root, { split: true });
  let searched = 0;
  // The first part to fail stops the others.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let failed: Exclude<PoolResult, { ok: true }> | undefined;
  const results = await Promise.all(
    parts.map(async (part) => {
      const names = (await part).filter((rel) => !filter || filter(rel));
      searched += names.length;
      const r = await pool().run(names, spec, stop.signal, opts.fileTimeLimitMs);
      if (!r.ok && !failed) {
        failed = r;
        stop.abort();
      }
      return r;
    }),
  ).finally(() => ctx.signal.removeEventListener('abort', onAbort));
  if (ctx.signal.aborted) return fail(ABORTED('grep'));
  if (failed) {
    if (failed.reason === 'aborted') return fail(ABORTED('grep'));
    if (failed.reason === 'crashed') return fail(GREP_FAILED(args.pattern, failed.message));
    const file = root.isFile ? input : shownPath(ctx, root, lexical, failed.file);
    return fail(GREP_TOO_SLOW(args.pattern, file, opts.fileTimeLimitMs));
  }
  // Every part kept the text of its own first max_results matches, so the first of all
  // are among them; the parts are disjoint, so sorting merges them.
  const found = results.flatMap((r) => (r.ok ? r.found : []));
  if (results.length > 1) found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const name = (rel: string) => shownPath(ctx, root, lexical, rel);
  const { out, shown, total } = render(mode, found, name, max, context);
  const display: GrepDisplay = {
    kind: 'grep',
    pattern: args.pattern,
    path: input,
    mode,
    matches: found.reduce((n, f) => n + f.lines.length, 0),
    files: found.length,
    searched,
    ...(total > shown ? { truncated: true } : {}),
  };
  if (found.length === 0) return ok(GREP_NO_MATCHES(args.pattern, input), display);
  const more = total - shown;
  return ok(more > 0 ? `${out.join('\n')}\n${MORE_MATCHES(more)}` : out.join('\n'), display);
}
