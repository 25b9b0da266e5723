// glob: the files under a directory of the allowed roots whose paths match a pattern,
// newest first (what the model most likely wants is what changed last). The files are
// searchFiles.ts's: .gitignore honoured, .git/ and forbidden paths left out.
import { lstatSync } from 'node:fs';
import { z } from 'zod';
import type { GlobDisplay } from '../model/toolDisplay.js';
import { defineTool } from './defineTool.js';
import { ABORTED, describeConfinement } from './fileAccess.js';
import { shownPath } from './grep.js';
import picomatch from 'picomatch';
import { candidateParts, gitPathspec, searchTarget } from './searchFiles.js';
import { invalidArgsMap, withoutNulls } from './toolArgs.js';
import { fail, ok } from './types.js';

export const GLOB_CAP_FILES = 200;

export const GLOB_NO_MATCHES = (p: string, pattern: string) => `No files under '${p}' match '${pattern}'.`;
export const MORE_FILES = (n: number) => `[${n} more files not shown]`;
export const GLOB_BAD_PATTERN = (pattern: string) =>
  `Pattern '${pattern}' must be relative to the searched directory (no leading '/' and no '..').`;
export const GLOB_NOT_DIRECTORY = (p: string) => `'${p}' is a file, not a directory; give the directory to search.`;

export const globArgs = z.object({
  pattern: z.string().describe("Glob over paths relative to the directory, e.g. '**/*.ts' or 'src/*.{ts,tsx}'."),
  path: z.string().describe("Directory to search, relative to the workspace or absolute (default '.').").optional(),
});

export const globTool = defineTool({
  name: 'glob',
  args: globArgs,
  argsError: invalidArgsMap('glob', '{"pattern": string, "path"?: string}'),
  prepare: (raw) => withoutNulls(raw ?? {}),
  asksByDefault: false,
  description: (caller) =>
    `Find files by path pattern ('**/*.ts', 'src/**/test_*.py'; *, ?, [abc], {a,b} and ** work), newest first. ` +
    `Skips what .gitignore files ignore and .git/. At most ${GLOB_CAP_FILES} paths, with a count of the rest. ${describeConfinement(caller)}`,
  async run(args, ctx) {
    const raw = args.pattern.trim();
    const pattern = raw.replace(/^(\.\/)+/, '');
    if (pattern === '' || pattern.startsWith('/') || pattern.split('/').includes('..')) return fail(GLOB_BAD_PATTERN(raw));
    const target = await searchTarget(args.path, ctx);
    if (!target.ok) return fail(target.error);
    const { root, input } = target;
    const dated: Array<{ rel: string; mtime: number }> = [];
    try {
      if (root.isFile) return fail(GLOB_NOT_DIRECTORY(input));
      // picomatch compiles the pattern to one expression: ~20x faster over 10,000 paths than
      // a per-segment matcher. '*' matches dotfiles too: the model should see what it may read.
      const matches = picomatch(pattern, { dot: true });
      // git leaves out what the pattern cannot match (searchFiles.ts).
      const parts = candidateParts(root, { pathspec: gitPathspec(pattern), split: false }).map(async (part) => {
        const files = await part;
        if (ctx.signal.aborted) return;
        // Synchronous lstat by the real path: for metadata the kernel has cached it is
        // several times faster than a thread-pool round trip (or a procfs lookup) per file.
        // Only the times are read here; the names came from the verified listing.
        // The names are already normal ('a/b', no '.' or '..'): joined by hand, as
        // path.join's normalising cost as much as a third of the stat.
        const base = root.real.endsWith('/') ? root.real : `${root.real}/`;
        for (const rel of files) {
          if (!matches(rel)) continue;
          const st = lstatSync(base + rel, { throwIfNoEntry: false });
          if (st && !st.isDirectory()) dated.push({ rel, mtime: st.mtimeMs });
        }
      });
      await Promise.all(parts);
      if (ctx.signal.aborted) return fail(ABORTED('glob'));
    } finally {
      await root.handle.close();
    }
    dated.sort((a, b) => b.mtime - a.mtime || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    const shown = dated.slice(0, GLOB_CAP_FILES).map((f) => shownPath(ctx, root, target.lexical, f.rel));
    const display: GlobDisplay = {
      kind: 'glob',
      pattern,
      path: input,
      files: dated.length,
      ...(dated.length > shown.length ? { truncated: true } : {}),
    };
    if (dated.length === 0) return ok(GLOB_NO_MATCHES(input, pattern), display);
    const rest = dated.length - shown.length;
    return ok(rest > 0 ? `${shown.join('\n')}\n${MORE_FILES(rest)}` : shown.join('\n'), display);
  },
});
