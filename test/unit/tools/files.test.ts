import { describe, it, expect, beforeEach } from 'vitest';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIST_CAP_ENTRIES, listFilesTool } from '../../../src/tools/listFiles.js';
import { compileGlob } from '../../../src/tools/pathGlob.js';
import { READ_CAP_BYTES, readFileTool } from '../../../src/tools/readFile.js';
import { writeFileTool } from '../../../src/tools/writeFile.js';
import type { ActionTracker } from '../../../src/tools/types.js';
import { tempTree } from '../../helpers/tempTree.js';
import { context, NOTES_REWRITE, risk } from './helpers.js';

let work: string;
let outside: string;

beforeEach(() => {
  const base = tempTree('files', {
    'work/README.md': '# hi\n',
    'work/src/a.ts': 'export const a = 1;\n',
    'work/src/b.tsx': 'b',
    'work/src/deep/c.md': 'c',
    'outside/secret.txt': 'secret',
  });
  work = join(base, 'work');
  outside = join(base, 'outside');
});

const ctx = (extra: Partial<Parameters<typeof context>[0]> = {}) => context({ cwd: work, ...extra });

describe('read_file', () => {
  it('reads a file inside the root, numbered as cat -n numbers lines', async () => {
    expect(await readFileTool.run({ path: 'src/a.ts' }, ctx())).toEqual({
      success: true,
      output: '     1\texport const a = 1;',
      display: { kind: 'read', path: 'src/a.ts', bytes: 20, startLine: 1, endLine: 1, totalLines: 1 },
    });
  });

  it('caps a large file at whole lines with a note saying where to read on, never cutting a character', async () => {
    // 'é' is two bytes: 400 lines of 200 of them are far over the byte cap.
    writeFileSync(join(work, 'big.txt'), `${'é'.repeat(200)}\n`.repeat(400));
    const r = await readFileTool.run({ path: 'big.txt' }, ctx());
    expect(r.success).toBe(true);
    expect(Buffer.byteLength(r.output, 'utf8')).toBeLessThanOrEqual(READ_CAP_BYTES + 100);
    const shown = r.output.split('\n').length - 1;
    expect(r.output.endsWith(`\n[showing lines 1-${shown} of 400; read more with offset=${shown + 1}]`)).toBe(true);
    expect(r.output).not.toContain('\uFFFD');
  });

  it('returns a file of exactly the default line limit without a note', async () => {
    writeFileSync(join(work, 'exact.txt'), 'y\n'.repeat(2000));
    const r = await readFileTool.run({ path: 'exact.txt' }, ctx());
    expect(r.output.split('\n')).toHaveLength(2000);
    expect(r.output).not.toContain('[showing');
  });

  it('explains missing files, directories, binaries, bad arguments and confinement', async () => {
    writeFileSync(join(work, 'bin.dat'), Buffer.from([1, 0, 2]));
    expect((await readFileTool.run({ path: 'nope.txt' }, ctx())).error).toBe("File not found: 'nope.txt'.");
    expect((await readFileTool.run({ path: 'src' }, ctx())).error).toContain('is a directory; use list_files');
    expect((await readFileTool.run({ path: 'bin.dat' }, ctx())).error).toContain('binary');
    expect((await readFileTool.run({ path: 3 }, ctx())).error).toContain("'path' must be a string");
    expect((await readFileTool.run(undefined, ctx())).error).toContain('Invalid arguments for read_file');
    expect((await readFileTool.run({ path: '../outside/secret.txt' }, ctx())).error).toContain("'..' leads outside");
  });

  it('refuses forbidden paths from the risk profile, with ~ taken from HOME', async () => {
    const oldHome = process.env.HOME;
    process.env.HOME = outside;
    try {
      const r = await readFileTool.run(
        { path: '~/secret.txt' },
        ctx({ risk: risk({ allowed_roots: ['.', '~'], forbidden_paths: ['~/secret.txt'] }) }),
      );
      expect(r.error).toContain("forbidden path '~/secret.txt'");
    } finally {
      process.env.HOME = oldHome;
    }
  });

  it('counts as an action before anything else and fails with the tracker message', async () => {
    const calls: string[] = [];
    const tracker: ActionTracker = {
      recordAction: () => {
        calls.push('action');
        return 'limit hit';
      },
      recordCostUsd: () => {},
      costExceeded: () => undefined,
    };
    for (const tool of [readFileTool, writeFileTool, listFilesTool]) {
      expect(await tool.run({ path: 'README.md', content: 'x' }, ctx({ tracker }))).toEqual({
        success: false,
        output: '',
        error: 'limit hit',
      });
    }
    expect(calls).toHaveLength(3);
    expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe('# hi\n');
  });
});

describe('write_file', () => {
  it('creates parent directories inside the root', async () => {
    const r = await writeFileTool.run({ path: 'new/dir/out.txt', content: 'héllo' }, ctx());
    expect(r).toEqual({
      success: true,
      output: "Wrote 6 bytes to 'new/dir/out.txt'.",
      display: {
        kind: 'diff',
        path: 'new/dir/out.txt',
        created: true,
        added: 1,
        removed: 0,
        hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, lines: ['+héllo'] }],
      },
    });
    expect(readFileSync(join(work, 'new', 'dir', 'out.txt'), 'utf8')).toBe('héllo');
  });

  it('overwrites and accepts empty content', async () => {
    expect((await writeFileTool.run({ path: 'README.md', content: '' }, ctx())).success).toBe(true);
    expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe('');
  });

  it('a rewrite records the diff of the old content against the new', async () => {
    const { path, before, after, display } = NOTES_REWRITE;
    writeFileSync(join(work, path), before);
    const r = await writeFileTool.run({ path, content: after }, ctx());
    expect(r.display).toEqual(display);
    expect(readFileSync(join(work, path), 'utf8')).toBe(after);
  });

  it('refuses to write through a symlink that leaves the root, creating nothing', async () => {
    symlinkSync(outside, join(work, 'out'));
    const r = await writeFileTool.run({ path: 'out/sub/x.txt', content: 'x' }, ctx());
    expect(r.success).toBe(false);
    expect(r.error).toContain('resolves through a symlink');
    expect(existsSync(join(outside, 'sub'))).toBe(false);
  });

  it('refuses an absolute path outside the roots and a missing content', async () => {
    expect((await writeFileTool.run({ path: join(outside, 'x'), content: 'x' }, ctx())).error).toContain('outside the allowed roots');
    expect((await writeFileTool.run({ path: 'x' }, ctx())).error).toContain("'content' is missing");
  });

  it('asks by default, unlike the reading tools', () => {
    expect(writeFileTool.asksByDefault).toBe(true);
    expect(readFileTool.asksByDefault).toBe(false);
    expect(listFilesTool.asksByDefault).toBe(false);
  });
});

describe('list_files', () => {
  it('lists the workspace entries, directories marked with /', async () => {
    const r = await listFilesTool.run({}, ctx());
    expect(r.output.split('\n')).toEqual(['README.md', 'src/']);
  });

  it('matches a one-level pattern only in the directory itself', async () => {
    const r = await listFilesTool.run({ path: 'src', pattern: '*.ts' }, ctx());
    expect(r.output).toBe('a.ts');
  });

  it('matches ** at any depth and brace alternatives', async () => {
    expect((await listFilesTool.run({ pattern: '**/*.md' }, ctx())).output.split('\n')).toEqual(['README.md', 'src/deep/c.md']);
    expect((await listFilesTool.run({ pattern: 'src/*.{ts,tsx}' }, ctx())).output.split('\n')).toEqual(['src/a.ts', 'src/b.tsx']);
  });

  it('does not search node_modules unless the pattern names it, and hides forbidden entries', async () => {
    mkdirSync(join(work, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(join(work, 'node_modules', 'pkg', 'x.md'), 'x');
    expect((await listFilesTool.run({ pattern: '**/*.md' }, ctx())).output).not.toContain('node_modules');
    expect((await listFilesTool.run({ pattern: 'node_modules/**/*.md' }, ctx())).output).toBe('node_modules/pkg/x.md');
    const hidden = await listFilesTool.run({ pattern: '**/*' }, ctx({ risk: risk({ forbidden_paths: ['src/deep'] }) }));
    expect(hidden.output).not.toContain('deep');
    expect(hidden.output).toContain('src/a.ts');
  });

  it(`caps at ${LIST_CAP_ENTRIES} entries with a note`, async () => {
    mkdirSync(join(work, 'many'));
    for (let i = 0; i < LIST_CAP_ENTRIES + 20; i++) writeFileSync(join(work, 'many', `f${String(i).padStart(4, '0')}`), '');
    const r = await listFilesTool.run({ path: 'many' }, ctx());
    const lines = r.output.split('\n');
    expect(lines).toHaveLength(LIST_CAP_ENTRIES + 1);
    expect(lines.at(-1)).toBe(`[truncated at ${LIST_CAP_ENTRIES} entries; narrow the path or pattern]`);
  });

  it('does not follow a symlinked directory out of the root', async () => {
    symlinkSync(outside, join(work, 'ext'));
    const r = await listFilesTool.run({ pattern: '**/*.txt' }, ctx());
    expect(r.output).not.toContain('secret');
    expect((await listFilesTool.run({ path: 'ext' }, ctx())).error).toContain('resolves through a symlink');
  });

  it('explains empty results, files, missing directories and escaping patterns', async () => {
    expect((await listFilesTool.run({ pattern: '*.py' }, ctx())).output).toBe("No entries under '.' match '*.py'.");
    expect((await listFilesTool.run({ path: 'README.md' }, ctx())).error).toContain('is a file');
    expect((await listFilesTool.run({ path: 'gone' }, ctx())).error).toBe("Directory not found: 'gone'.");
    expect((await listFilesTool.run({ pattern: '../*' }, ctx())).error).toContain('must be relative');
  });
});

describe('compileGlob', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'x/y/a.ts', true],
    ['src/**', 'src/x/y', true],
    ['src/**', 'lib/x', false],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'b.txt', false],
    ['*.{ts,tsx}', 'a.tsx', true],
    ['a+b(1).txt', 'a+b(1).txt', true],
    ['a.txt', 'aXtxt', false],
  ])('%s vs %s → %s', (pattern, path, expected) => {
    expect(compileGlob(pattern).matches(path)).toBe(expected);
  });

  it('prunes directories no match can lie under', () => {
    expect(compileGlob('src/*.ts').couldMatchBelow('src')).toBe(true);
    expect(compileGlob('src/*.ts').couldMatchBelow('lib')).toBe(false);
    expect(compileGlob('src/*.ts').couldMatchBelow('src/deep')).toBe(false);
    expect(compileGlob('**/*.ts').couldMatchBelow('any/where')).toBe(true);
  });
});
