// grep and glob over a table of cases, each run twice: in a git work tree (files from the
// index) and in a plain directory (the descriptor walk). Both must agree on what is
// searched: .gitignore (nested too) honoured, .git/, binary and oversized files skipped,
// forbidden paths never opened, nothing outside the roots.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GLOB_CAP_FILES, globTool } from '../../../src/tools/glob.js';
import { GREP_MAX_FILE_BYTES, grepTool } from '../../../src/tools/grep.js';
import { context, risk } from './helpers.js';

let base: string | undefined;
let work: string;

function tree(git: boolean): void {
  const made = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-search-')));
  base = made;
  work = join(made, 'work');
  const put = (rel: string, text: string | Buffer) => {
    mkdirSync(join(work, rel, '..'), { recursive: true });
    writeFileSync(join(work, rel), text);
  };
  put('src/a.ts', 'const alpha = 1;\n// TODO first\nexport function load() {}\n');
  put('src/b.ts', 'import x from "y";\n\n\n\nconst Alpha = 2; // todo second\n');
  put('docs/readme.md', 'TODO in docs\n');
  put('.gitignore', 'ignored/\n*.log\n');
  put('ignored/hidden.ts', 'TODO ignored dir\n');
  put('debug.log', 'TODO log file\n');
  put('sub/.gitignore', 'local.ts\n');
  put('sub/local.ts', 'TODO nested ignore\n');
  put('sub/kept.ts', 'TODO nested kept\n');
  put('bin.dat', Buffer.concat([Buffer.from('TODO '), Buffer.from([0, 1, 2])]));
  put('huge.txt', `TODO ${'x'.repeat(GREP_MAX_FILE_BYTES)}\n`);
  put('secret/keys.ts', 'TODO secret\n');
  mkdirSync(join(made, 'outside'));
  writeFileSync(join(made, 'outside', 'o.ts'), 'TODO outside\n');
  if (git) {
    execFileSync('git', ['init', '-q'], { cwd: work });
    // Only in .git: never searched.
    writeFileSync(join(work, '.git', 'TODO-in-git.ts'), 'TODO git internals\n');
  }
}

// Only a test that made a tree has one to remove: one without (which may run first when
// tests are shuffled) would hand rmSync an unset path.
afterEach(() => {
  if (base !== undefined) rmSync(base, { recursive: true, force: true });
});

const ctx = () => context({ cwd: work, risk: risk({ forbidden_paths: ['secret'] }) });
const grep = async (args: Record<string, unknown>) => grepTool.run(args, ctx());
const lines = (s: string) => s.split('\n');

for (const mode of ['git', 'walk'] as const) {
  describe(`grep and glob (${mode === 'git' ? 'a git work tree' : 'a plain directory'})`, () => {
    beforeEach(() => tree(mode === 'git'));

    it('content mode: path:line:text, skipping ignored, nested-ignored, binary, oversized, .git and forbidden files', async () => {
      const r = await grep({ pattern: 'TODO' });
      expect(r.error).toBeUndefined();
      expect(lines(r.output)).toEqual(['docs/readme.md:1:TODO in docs', 'src/a.ts:2:// TODO first', 'sub/kept.ts:1:TODO nested kept']);
      expect(r.display).toMatchObject({ kind: 'grep', pattern: 'TODO', path: '.', mode: 'content', matches: 3, files: 3 });
    });

    it('ignore_case, a regex, and a glob filter', async () => {
      expect(lines((await grep({ pattern: 'todo', ignore_case: true, glob: '*.ts' })).output)).toEqual([
        'src/a.ts:2:// TODO first',
        'src/b.ts:5:const Alpha = 2; // todo second',
        'sub/kept.ts:1:TODO nested kept',
      ]);
      expect((await grep({ pattern: 'function\\s+\\w+\\(', path: 'src' })).output).toBe('src/a.ts:3:export function load() {}');
      expect((await grep({ pattern: 'alpha', glob: 'src/**/*.md' })).output).toBe("No matches for 'alpha' under '.'.");
    });

    it('files_with_matches and count', async () => {
      expect(lines((await grep({ pattern: 'alpha', ignore_case: true, output_mode: 'files_with_matches' })).output)).toEqual([
        'src/a.ts',
        'src/b.ts',
      ]);
      expect(lines((await grep({ pattern: 'TODO|todo', output_mode: 'count', path: 'src' })).output)).toEqual(['src/a.ts:1', 'src/b.ts:1']);
    });

    it('context lines, as path-line-text, groups separated by --', async () => {
      expect(lines((await grep({ pattern: 'alpha|Alpha', path: 'src', context: 1 })).output)).toEqual([
        'src/a.ts:1:const alpha = 1;',
        'src/a.ts-2-// TODO first',
        '--',
        'src/b.ts-4-',
        'src/b.ts:5:const Alpha = 2; // todo second',
      ]);
    });

    it('caps results and counts the rest', async () => {
      const r = await grep({ pattern: 'TODO', max_results: 2 });
      expect(lines(r.output)).toEqual(['docs/readme.md:1:TODO in docs', 'src/a.ts:2:// TODO first', '[1 more matches not shown]']);
      expect(r.display).toMatchObject({ truncated: true, matches: 3 });
    });

    it('an invalid regex is a failed result naming the error', async () => {
      const r = await grep({ pattern: 'a(b' });
      expect(r.success).toBe(false);
      expect(r.error).toMatch(/^Invalid regular expression 'a\(b': .*Unterminated group/);
    });

    it('searches one file when given one', async () => {
      expect((await grep({ pattern: 'load', path: 'src/a.ts' })).output).toBe('src/a.ts:3:export function load() {}');
    });

    it('glob: newest first, .gitignore honoured, forbidden paths left out', async () => {
      const at = (rel: string, s: number) => utimesSync(join(work, rel), s, s);
      at('src/a.ts', 1_000_000);
      at('src/b.ts', 3_000_000);
      at('sub/kept.ts', 2_000_000);
      const r = await globTool.run({ pattern: '**/*.ts' }, ctx());
      expect(lines(r.output)).toEqual(['src/b.ts', 'sub/kept.ts', 'src/a.ts']);
      expect(r.display).toEqual({ kind: 'glob', pattern: '**/*.ts', path: '.', files: 3 });
      expect((await globTool.run({ pattern: '*.ts', path: 'src' }, ctx())).output).toBe('src/b.ts\nsrc/a.ts');
      expect((await globTool.run({ pattern: '**/*.rs' }, ctx())).output).toBe("No files under '.' match '**/*.rs'.");
    });

    it('every search tool refuses a path outside the roots and a forbidden path', async () => {
      for (const path of ['../outside', join(base!, 'outside')]) {
        expect((await grep({ pattern: 'TODO', path })).error).toContain('outside the allowed roots');
        expect((await globTool.run({ pattern: '**/*', path }, ctx())).error).toContain('outside the allowed roots');
      }
      expect((await grep({ pattern: 'TODO', path: 'secret' })).error).toContain("forbidden path 'secret'");
      expect((await grep({ pattern: 'TODO', path: 'secret/keys.ts' })).error).toContain("forbidden path 'secret'");
      expect((await globTool.run({ pattern: '**/*', path: 'secret' }, ctx())).error).toContain("forbidden path 'secret'");
      expect((await globTool.run({ pattern: '../outside/*' }, ctx())).error).toContain('must be relative');
      expect((await globTool.run({ pattern: '**/*' }, ctx())).output).not.toContain('secret');
    });
  });
}

describe('glob caps its list', () => {
  beforeEach(() => tree(false));

  it(`shows ${GLOB_CAP_FILES} paths and counts the rest`, async () => {
    mkdirSync(join(work, 'many'));
    for (let i = 0; i < GLOB_CAP_FILES + 5; i++) writeFileSync(join(work, 'many', `f${i}.txt`), '');
    const r = await globTool.run({ pattern: 'many/*.txt' }, ctx());
    const out = lines(r.output);
    expect(out).toHaveLength(GLOB_CAP_FILES + 1);
    expect(out[GLOB_CAP_FILES]).toBe('[5 more files not shown]');
    expect(r.display).toEqual({ kind: 'glob', pattern: 'many/*.txt', path: '.', files: GLOB_CAP_FILES + 5, truncated: true });
  });
});

describe('grep and glob ask nothing by default', () => {
  it('do not ask', () => {
    expect(grepTool.asksByDefault).toBe(false);
    expect(globTool.asksByDefault).toBe(false);
  });
});
