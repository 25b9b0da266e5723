// write_file's preview: the diff the write would make, computed without writing, through
// the same guard as the write; nothing where the write would be refused.
import { chmodSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeFileTool } from '../../../src/tools/writeFile.js';
import { tempTree } from '../../helpers/tempTree.js';
import { context, NOTES_REWRITE, risk } from './helpers.js';

let work: string;
let outside: string;

beforeEach(() => {
  const base = tempTree('wpreview', { 'work/src/': '', 'work/notes.txt': NOTES_REWRITE.before, 'outside/secret.txt': 'secret\n' });
  work = join(base, 'work');
  outside = join(base, 'outside');
});

const ctx = (extra: Partial<Parameters<typeof context>[0]> = {}) => context({ cwd: work, ...extra });
const preview = (args: unknown, c = ctx()) => writeFileTool.preview!(args, c);

describe('write_file preview', () => {
  it('a rewrite: the diff of the current content against the proposed one, the file untouched', async () => {
    const { path, before, after, display } = NOTES_REWRITE;
    expect(await preview({ path, content: after })).toEqual(display);
    expect(readFileSync(join(work, path), 'utf8')).toBe(before);
  });

  it('the same display the write then records', async () => {
    const args = { path: 'notes.txt', content: 'ONE\ntwo\n' };
    const before = await preview(args);
    const r = await writeFileTool.run(args, ctx());
    expect(r.display).toEqual(before);
  });

  it('a new file: its lines, created, and no directory made', async () => {
    const d = await preview({ path: 'new/dir/out.txt', content: 'a\nb\n' });
    expect(d).toMatchObject({ kind: 'diff', created: true, added: 2, removed: 0 });
    expect(d && d.kind === 'diff' ? d.hunks[0].lines : []).toEqual(['+a', '+b']);
    expect(existsSync(join(work, 'new'))).toBe(false);
  });

  it('nothing for arguments that do not parse, a path outside the roots, a forbidden path', async () => {
    expect(await preview({ path: 'notes.txt' })).toBeUndefined();
    expect(await preview({ path: join(outside, 'secret.txt'), content: 'x' })).toBeUndefined();
    expect(await preview({ path: 'notes.txt', content: 'x' }, ctx({ risk: risk({ forbidden_paths: ['notes.txt'] }) }))).toBeUndefined();
  });

  it('never follows a symlink out of the roots: the outside content is not read', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(work, 'link.txt'));
    symlinkSync(outside, join(work, 'src', 'out'));
    expect(await preview({ path: 'link.txt', content: 'x' })).toBeUndefined();
    expect(await preview({ path: 'src/out/secret.txt', content: 'x' })).toBeUndefined();
  });

  it('a directory is no diff', async () => {
    expect(await preview({ path: 'src', content: 'x' })).toBeUndefined();
  });

  it('a file it may write but not read: the new lines, nothing claimed about the old', async () => {
    if (process.getuid?.() === 0) return; // root reads everything
    writeFileSync(join(work, 'wo.txt'), 'hidden\n');
    chmodSync(join(work, 'wo.txt'), 0o200);
    const d = await preview({ path: 'wo.txt', content: 'a\nb\n' });
    expect(d).toEqual({ kind: 'diff', path: 'wo.txt', hunks: [], added: 2, removed: 0, truncated: true });
  });
});
