// AGENTS.md discovery and the cap (config/projectContext.ts), on real folders.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import {
  CONTEXT_INTRO,
  contextFolders,
  contextHeading,
  loadProjectContext,
  withProjectContext,
} from '../../../src/config/projectContext.js';

beforeAll(() => setLanguage('en'));

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** root/{home, outer/repo/.git, outer/repo/a/b}: outer is above the repository. */
function tree() {
  root = mkdtempSync(join(tmpdir(), 'arbor-ctx-'));
  const home = join(root, 'home');
  const outer = join(root, 'outer');
  const repo = join(outer, 'repo');
  const a = join(repo, 'a');
  const b = join(a, 'b');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(b, { recursive: true });
  return { root, home, outer, repo, a, b };
}

const write = (dir: string, text: string) => writeFileSync(join(dir, 'AGENTS.md'), text);

describe('AGENTS.md discovery', () => {
  it('reads from the working directory up to the repository root, the home file first, nearest last', () => {
    const d = tree();
    write(d.outer, 'OUTER: above the repository, never read');
    write(d.repo, 'REPO rules');
    write(d.a, 'A rules');
    write(d.b, 'B rules');
    write(d.home, 'HOME rules');
    const ctx = loadProjectContext({ cwd: d.b, home: d.home });
    expect(ctx.files.map((f) => [f.path, f.scope])).toEqual([
      [join(d.home, 'AGENTS.md'), 'home'],
      [join(d.repo, 'AGENTS.md'), 'project'],
      [join(d.a, 'AGENTS.md'), 'project'],
      [join(d.b, 'AGENTS.md'), 'project'],
    ]);
    expect(ctx.searched).toEqual([d.b, d.a, d.repo]);
    expect(ctx.warnings).toEqual([]);
    expect(ctx.text).not.toContain('OUTER');
    expect(ctx.text.startsWith(CONTEXT_INTRO)).toBe(true);
    // Each file under a heading naming its path, in order: home, repo, a, b.
    const at = (s: string) => ctx.text.indexOf(s);
    const order = ['HOME rules', 'REPO rules', 'A rules', 'B rules'].map(at);
    expect(order.every((pos) => pos > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(at(contextHeading(join(d.a, 'AGENTS.md')))).toBeLessThan(at('A rules'));
    expect(at(contextHeading(join(d.a, 'AGENTS.md')))).toBeGreaterThan(at('REPO rules'));
    expect(ctx.files.every((f) => !f.cut && f.loaded === f.size)).toBe(true);
  });

  it('a .git file (a worktree) marks the repository root too; folders without a file are skipped', () => {
    const d = tree();
    rmSync(join(d.repo, '.git'), { recursive: true });
    writeFileSync(join(d.a, '.git'), 'gitdir: /elsewhere\n');
    write(d.repo, 'REPO');
    write(d.b, 'B');
    const ctx = loadProjectContext({ cwd: d.b, home: d.home });
    expect(contextFolders(d.b)).toEqual([d.b, d.a]);
    expect(ctx.files.map((f) => f.path)).toEqual([join(d.b, 'AGENTS.md')]);
  });

  it('outside any repository only the working directory is read', () => {
    const d = tree();
    rmSync(join(d.repo, '.git'), { recursive: true });
    write(d.repo, 'REPO');
    write(d.a, 'A');
    const ctx = loadProjectContext({ cwd: d.a, home: d.home });
    // Unless some ancestor of the temp folder is a repository (never so in /tmp).
    expect(ctx.searched).toEqual([d.a]);
    expect(ctx.files.map((f) => f.path)).toEqual([join(d.a, 'AGENTS.md')]);
  });

  it('nothing found: no text, and the system prompt is left as it was', () => {
    const d = tree();
    const ctx = loadProjectContext({ cwd: d.b, home: d.home });
    expect(ctx.files).toEqual([]);
    expect(ctx.text).toBe('');
    expect(withProjectContext('You are main.', ctx.text)).toBe('You are main.');
    write(d.b, 'B');
    expect(withProjectContext('You are main.', loadProjectContext({ cwd: d.b }).text)).toMatch(/^You are main\.\n\n# Project context/);
  });

  it('the home folder used as the working directory counts its file once', () => {
    const d = tree();
    write(d.home, 'HOME');
    const ctx = loadProjectContext({ cwd: d.home, home: d.home });
    expect(ctx.files).toHaveLength(1);
    expect(ctx.text.match(/HOME/g)).toHaveLength(1);
  });

  it('an unreadable file is a warning naming it; the others still load', () => {
    const d = tree();
    mkdirSync(join(d.a, 'AGENTS.md'));
    write(d.b, 'B ok');
    const ctx = loadProjectContext({ cwd: d.b, home: d.home });
    expect(ctx.files.map((f) => f.error)).toEqual(['EISDIR', undefined]);
    expect(ctx.warnings).toEqual([`project context: cannot read ${join(d.a, 'AGENTS.md')} (EISDIR); it is left out`]);
    expect(ctx.text).toContain('B ok');
  });

  it('a dangling symlink and a FIFO are warnings too, and the start never blocks on a FIFO', () => {
    const d = tree();
    symlinkSync(join(d.root, 'nowhere'), join(d.repo, 'AGENTS.md'));
    execFileSync('mkfifo', [join(d.a, 'AGENTS.md')]);
    write(d.b, 'B ok');
    const ctx = loadProjectContext({ cwd: d.b, home: d.home });
    expect(ctx.files.map((f) => f.error)).toEqual(['ENOENT', 'not a regular file', undefined]);
    expect(ctx.warnings).toEqual([
      `project context: cannot read ${join(d.repo, 'AGENTS.md')} (ENOENT); it is left out`,
      `project context: cannot read ${join(d.a, 'AGENTS.md')} (not a regular file); it is left out`,
    ]);
    expect(ctx.text).toContain('B ok');
  });
});

describe('the cap', () => {
  it('is spent nearest first: the farthest file is cut, then left out, each named in a warning', () => {
    const d = tree();
    write(d.home, 'home-line\n'.repeat(300));
    write(d.repo, 'r'.repeat(3000));
    write(d.b, 'b'.repeat(1500));
    const ctx = loadProjectContext({ cwd: d.b, home: d.home, maxKb: 4 });
    const [home, repo, b] = ctx.files;
    expect(b).toMatchObject({ size: 1500, loaded: 1500, cut: false });
    expect(repo).toMatchObject({ size: 3000, loaded: 4096 - 1500, cut: true });
    expect(home).toMatchObject({ size: 3000, loaded: 0, cut: true });
    expect(ctx.warnings).toEqual([
      `project context: ${join(d.home, 'AGENTS.md')} (3000 bytes) was left out: the nearer AGENTS.md files used all of [context] max_kb = 4 KiB`,
      `project context: ${join(d.repo, 'AGENTS.md')} was cut to its first 2596 of 3000 bytes ([context] max_kb = 4 KiB in total)`,
    ]);
    expect(ctx.text).not.toContain('home-line');
    expect(ctx.text.match(/r/g)!.length).toBeGreaterThanOrEqual(2596);
    expect(ctx.text).toContain('[cut: the first 2596 of 3000 bytes of this file are included (project context limit 4 KiB)]');
    expect(ctx.text).not.toContain(contextHeading(join(d.home, 'AGENTS.md')));
  });

  it('defaults to 32 KiB and never splits a character', () => {
    const d = tree();
    // 3-byte characters: 32 KiB falls inside one.
    write(d.b, '€'.repeat(12000));
    const ctx = loadProjectContext({ cwd: d.b });
    expect(ctx.maxKb).toBe(32);
    expect(ctx.files[0]).toMatchObject({ size: 36000, cut: true });
    expect(ctx.files[0].loaded).toBe(32766);
    expect(ctx.text).not.toContain('\uFFFD');
    expect(ctx.text.match(/€/g)).toHaveLength(32766 / 3);
  });

  it('max_kb = 0 turns project context off', () => {
    const d = tree();
    write(d.b, 'B');
    const ctx = loadProjectContext({ cwd: d.b, maxKb: 0 });
    expect(ctx).toMatchObject({ maxKb: 0, files: [], text: '', warnings: [] });
  });
});
