// glob hands git a pathspec so git leaves out what cannot match (searchFiles.ts). It must
// never leave out a path the glob matches: for each pattern, every file picomatch matches
// is listed by git under the pathspec (tracked and untracked), checked against git itself.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globTool } from '../../../src/tools/glob.js';
import { gitPathspec } from '../../../src/tools/searchFiles.js';
import { context } from './helpers.js';

const FILES = [
  'a.ts',
  'README.md',
  '.hidden.ts',
  'src/a.ts',
  'src/b.tsx',
  'src/deep/c.ts',
  'src/deep/test_x.py',
  'src/test_y.py',
  'lib/test_z.py',
  'docs/guide.md',
  'docs/a b.md',
  'odd/[x].ts',
];
const UNTRACKED = ['src/new.ts', 'src/deep/test_new.py', 'notes.md'];
const PATTERNS = [
  '**/*.ts',
  '*.ts',
  'src/**/test_*.py',
  'src/*.{ts,tsx}',
  '**/*.{md,py}',
  'src/**',
  'README.md',
  'docs/*.md',
  '**/test_?.py',
  'src/deep/*',
  '**/[ab].ts',
  '!(src)/**',
  // A leading '!' negates the whole glob: its matches are what the literal text rules out.
  '!**/*.md',
  '!*.ts',
];

let dir: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-pathspec-')));
  const put = (rel: string) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), `${rel}\n`);
  };
  FILES.forEach(put);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  UNTRACKED.forEach(put);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gitPathspec', () => {
  for (const pattern of PATTERNS) {
    it(`lists every file '${pattern}' matches`, () => {
      const spec = gitPathspec(pattern);
      const args = ['ls-files', '-z', '-co', '--exclude-standard', ...(spec === undefined ? [] : ['--', spec])];
      const listed = new Set(
        execFileSync('git', args, { cwd: dir, env: { PATH: process.env.PATH } })
          .toString('utf8')
          .split('\0'),
      );
      const matches = picomatch(pattern, { dot: true });
      const wanted = [...FILES, ...UNTRACKED].filter((f) => matches(f));
      expect(wanted.filter((f) => !listed.has(f))).toEqual([]);
    });
  }

  it('narrows where it can', () => {
    expect(gitPathspec('**/*.ts')).toBe('*.ts');
    expect(gitPathspec('src/**/test_*.py')).toBe('src/*.py');
    expect(gitPathspec('README.md')).toBe('README.md');
    expect(gitPathspec('**')).toBeUndefined();
    expect(gitPathspec(':(glob)x*')).toBeUndefined();
  });

  it('glob still finds files in a directory .gitignore ignores when git lists nothing under the pathspec', async () => {
    writeFileSync(join(dir, '.gitignore'), 'ignored/\n');
    mkdirSync(join(dir, 'ignored'));
    writeFileSync(join(dir, 'ignored', 'kept.ts'), 'x\n');
    try {
      const r = await globTool.run({ pattern: '**/*.ts', path: 'ignored' }, context({ cwd: dir }));
      expect(r.output).toBe('ignored/kept.ts');
    } finally {
      rmSync(join(dir, 'ignored'), { recursive: true, force: true });
      rmSync(join(dir, '.gitignore'));
    }
  });
});
