import { describe, it, expect, beforeEach } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempTree } from '../../helpers/tempTree.js';
import { resolveConfinedPath } from '../../../src/tools/pathGuard.js';

let base: string;
let work: string;
let outside: string;
let home: string;

beforeEach(() => {
  base = tempTree('guard', {
    'work/src/a.ts': 'a',
    'outside/secret.txt': 'secret',
    'home/.ssh/id_rsa': 'key',
  });
  work = join(base, 'work');
  outside = join(base, 'outside');
  home = join(base, 'home');
});

function guard(input: string, extra: Partial<Parameters<typeof resolveConfinedPath>[1]> = {}) {
  return resolveConfinedPath(input, { cwd: work, allowedRoots: ['.'], forbiddenPaths: [], home, ...extra });
}

describe('resolveConfinedPath', () => {
  it('resolves a relative path inside the root', () => {
    expect(guard('src/a.ts')).toEqual({ ok: true, path: join(work, 'src', 'a.ts') });
    expect(guard('src/../src/a.ts')).toEqual({ ok: true, path: join(work, 'src', 'a.ts') });
  });

  it('refuses a .. escape and says so', () => {
    const r = guard('../outside/secret.txt');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toContain("'../outside/secret.txt'");
      expect(r.error).toContain("'..' leads outside the allowed roots");
    }
  });

  it('refuses an absolute path outside the roots', () => {
    const r = guard(join(outside, 'secret.txt'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('outside the allowed roots (.)');
  });

  it('accepts an absolute path inside a root and a second root relative to cwd', () => {
    expect(guard(join(work, 'src', 'a.ts')).ok).toBe(true);
    expect(guard(join(outside, 'secret.txt'), { allowedRoots: ['.', '../outside'] }).ok).toBe(true);
  });

  it('refuses a symlink inside the root that points to a directory outside it', () => {
    symlinkSync(outside, join(work, 'link'));
    const read = guard('link/secret.txt');
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error).toContain('resolves through a symlink');
    // A new file under the link would be created outside the root as well.
    expect(guard('link/new.txt', { forWrite: true }).ok).toBe(false);
    expect(guard('link/deeper/new.txt', { forWrite: true }).ok).toBe(false);
  });

  it('refuses a dangling symlink whose target is outside the root', () => {
    symlinkSync(join(outside, 'not-yet.txt'), join(work, 'dangling'));
    expect(guard('dangling', { forWrite: true }).ok).toBe(false);
  });

  it('accepts a symlink that stays inside the root', () => {
    symlinkSync(join(work, 'src'), join(work, 'alias'));
    expect(guard('alias/a.ts')).toEqual({ ok: true, path: join(work, 'alias', 'a.ts') });
  });

  it('refuses forbidden paths and anything under them, with ~ expanded', () => {
    const opts = { allowedRoots: ['~', '.'], forbiddenPaths: ['~/.ssh'] };
    for (const input of ['~/.ssh', '~/.ssh/id_rsa', join(home, '.ssh', 'id_rsa')]) {
      const r = guard(input, opts);
      expect(r.ok, input).toBe(false);
      if (!r.ok) expect(r.error).toContain("forbidden path '~/.ssh'");
    }
    expect(guard('~/.sshx', opts).ok).toBe(true);
  });

  it('refuses a symlink that leads into a forbidden path', () => {
    symlinkSync(join(home, '.ssh'), join(work, 'keys'));
    const r = guard('keys/id_rsa', { allowedRoots: ['.', '~'], forbiddenPaths: ['~/.ssh'] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain("forbidden path '~/.ssh'");
  });

  it('accepts a new file in new directories under an allowed root', () => {
    expect(guard('new/dir/file.txt', { forWrite: true })).toEqual({ ok: true, path: join(work, 'new', 'dir', 'file.txt') });
  });

  it('refuses writing over a directory, an empty path, and everything when no roots are configured', () => {
    expect(guard('src', { forWrite: true }).ok).toBe(false);
    expect(guard('  ').ok).toBe(false);
    const r = guard('src/a.ts', { allowedRoots: [] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('no allowed_roots');
  });

  it('reports a symlink loop instead of throwing', () => {
    symlinkSync(join(work, 'loop-b'), join(work, 'loop-a'));
    symlinkSync(join(work, 'loop-a'), join(work, 'loop-b'));
    const r = guard('loop-a/x');
    expect(r.ok).toBe(false);
  });

  it('a fence refuses its folder but for its holes, lexically and through links; a hole never pierces a forbidden path', () => {
    const trees = join(base, 'trees');
    const own = join(trees, 'own');
    const sibling = join(trees, 'sibling');
    for (const d of [join(own, 'src'), sibling]) mkdirSync(d, { recursive: true });
    writeFileSync(join(sibling, 'b.ts'), 'b');
    symlinkSync(sibling, join(own, 'to-sibling'));
    const fenced = { cwd: own, allowedRoots: [base], forbiddenPaths: [join(own, 'secret')], fences: [{ folder: trees, except: [own] }] };
    expect(guard('src/new.ts', { ...fenced, forWrite: true })).toEqual({ ok: true, path: join(own, 'src', 'new.ts') });
    for (const p of [join(sibling, 'b.ts'), '../sibling/b.ts', trees, join(trees, 'own.json')]) {
      const r = guard(p, fenced);
      expect(r.ok, p).toBe(false);
      if (!r.ok)
        expect(r.error).toBe(`Path '${p}' refused: it is inside '${trees}', where an isolated run may reach only its own worktree.`);
    }
    const linked = guard('to-sibling/b.ts', { ...fenced, forWrite: true });
    expect(linked.ok).toBe(false);
    if (!linked.ok) expect(linked.error).toContain(`resolves through a symlink to '${join(sibling, 'b.ts')}', inside '${trees}'`);
    // The hole is the fence's only: a forbidden path inside it stays forbidden.
    const forbidden = guard('secret/x', fenced);
    expect(forbidden.ok).toBe(false);
    if (!forbidden.ok) expect(forbidden.error).toContain('forbidden path');
    // Without the fence (a run without a worktree) the same roots reach the sibling.
    expect(guard(join(sibling, 'b.ts'), { ...fenced, fences: [] }).ok).toBe(true);
  });
});
