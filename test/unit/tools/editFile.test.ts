// edit_file: exact replacement over a table of cases, the exact error strings, line endings
// and final newline kept, all-or-nothing multi-edits, the diff display and the preview.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyEdits } from '../../../src/tools/editApply.js';
import { editFileTool, windowedDiff } from '../../../src/tools/editFile.js';
import { fileDiff } from '../../../src/text/diff.js';
import { context, risk } from './helpers.js';

let base: string;
let work: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-edit-')));
  work = join(base, 'work');
  mkdirSync(join(work, 'secret'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'o.txt'), 'keep\n');
  writeFileSync(join(work, 'secret', 's.txt'), 'keep\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const ctx = () => context({ cwd: work, risk: risk({ forbidden_paths: ['secret'] }) });
const file = (name: string, text: string) => (writeFileSync(join(work, name), text), name);
const read = (name: string) => readFileSync(join(work, name), 'utf8');

describe('edit_file replacements', () => {
  it.each([
    ['one replacement', 'a\nb\nc\n', { old_string: 'b', new_string: 'B' }, 'a\nB\nc\n'],
    ['several lines', 'a\nb\nc\n', { old_string: 'a\nb\n', new_string: 'x\n' }, 'x\nc\n'],
    ['replace_all', 'x y x\nx\n', { old_string: 'x', new_string: 'z', replace_all: true }, 'z y z\nz\n'],
    ['a $ in new_string is text', 'a\n', { old_string: 'a', new_string: "$&$1$'" }, "$&$1$'\n"],
    [
      'a CRLF file stays CRLF',
      'one\r\ntwo\r\nthree\r\n',
      { old_string: 'one\ntwo\n', new_string: 'uno\ndos\n' },
      'uno\r\ndos\r\nthree\r\n',
    ],
    ['CRLF in the edit itself', 'one\r\ntwo\r\n', { old_string: 'one\r\n', new_string: '1\r\n' }, '1\r\ntwo\r\n'],
    ['the final newline is kept', 'a\nlast\n', { old_string: 'last\n', new_string: 'end' }, 'a\nend\n'],
    ['no final newline stays none', 'a\nlast', { old_string: 'last', new_string: 'end' }, 'a\nend'],
  ])('%s', async (_what, before, edit, after) => {
    const name = file('f.txt', before);
    const r = await editFileTool.run({ path: name, ...edit }, ctx());
    expect(r.error).toBeUndefined();
    expect(read(name)).toBe(after);
  });

  it('says what it did and shows the diff', async () => {
    file('f.txt', 'a\nb\nc\n');
    const r = await editFileTool.run({ path: 'f.txt', old_string: 'b\n', new_string: 'B\nB2\n' }, ctx());
    expect(r.output).toBe("Edited 'f.txt': 1 replacement (+2 -1 lines).");
    expect(r.display).toMatchObject({ kind: 'diff', path: 'f.txt', added: 2, removed: 1 });
  });

  it('applies several edits in order, each to the result of the one before', async () => {
    file('f.txt', 'alpha\nbeta\ngamma\n');
    const r = await editFileTool.run(
      {
        path: 'f.txt',
        edits: [
          { old_string: 'alpha', new_string: 'ALPHA' },
          { old_string: 'ALPHA\nbeta', new_string: 'ALPHA\nBETA' },
        ],
      },
      ctx(),
    );
    expect(r.output).toBe("Edited 'f.txt': 2 replacements (+2 -2 lines).");
    expect(read('f.txt')).toBe('ALPHA\nBETA\ngamma\n');
  });
});

describe('edit_file refusals', () => {
  it('not found, with the closest lines and their numbers when one is near', async () => {
    file('f.txt', 'function load() {\n    return fetchAll();\n}\n');
    const near = await editFileTool.run({ path: 'f.txt', old_string: 'function load() {\n  return fetchAll();', new_string: 'x' }, ctx());
    expect(near.error).toBe(
      'old_string not found in f.txt\nThe closest match is lines 1-2:\n     1\tfunction load() {\n     2\t    return fetchAll();',
    );
    const far = await editFileTool.run({ path: 'f.txt', old_string: 'zzz qqq', new_string: 'x' }, ctx());
    expect(far.error).toBe('old_string not found in f.txt');
  });

  it('ambiguous and identical', async () => {
    file('f.txt', 'x\nx\nx\n');
    expect((await editFileTool.run({ path: 'f.txt', old_string: 'x', new_string: 'y' }, ctx())).error).toBe(
      'old_string matches 3 places in f.txt; add surrounding lines to make it unique or set replace_all',
    );
    expect((await editFileTool.run({ path: 'f.txt', old_string: 'x', new_string: 'x' }, ctx())).error).toBe(
      'old_string and new_string are the same',
    );
  });

  it('a multi-edit whose third edit fails leaves the file as it was', async () => {
    const before = 'one\ntwo\nthree\n';
    file('f.txt', before);
    const mtime = statSync(join(work, 'f.txt')).mtimeMs;
    const r = await editFileTool.run(
      {
        path: 'f.txt',
        edits: [
          { old_string: 'one', new_string: '1' },
          { old_string: 'two', new_string: '2' },
          { old_string: 'four', new_string: '4' },
        ],
      },
      ctx(),
    );
    expect(r.error).toBe('old_string not found in f.txt\n(edit 3 of 3; none of the 3 edits was written)');
    expect(read('f.txt')).toBe(before);
    expect(statSync(join(work, 'f.txt')).mtimeMs).toBe(mtime);
  });

  it('refuses a missing file without creating it, and malformed calls', async () => {
    expect((await editFileTool.run({ path: 'nope.txt', old_string: 'a', new_string: 'b' }, ctx())).error).toBe(
      "File not found: 'nope.txt'.",
    );
    expect(() => statSync(join(work, 'nope.txt'))).toThrow();
    file('f.txt', 'a\n');
    for (const args of [
      { path: 'f.txt', old_string: 'a' },
      { path: 'f.txt', edits: [] },
      { path: 'f.txt', old_string: 'a', new_string: 'b', edits: [{ old_string: 'a', new_string: 'b' }] },
    ]) {
      expect((await editFileTool.run(args, ctx())).error).toContain("give either 'old_string' and 'new_string', or 'edits'");
    }
    expect((await editFileTool.run({ path: 'f.txt', old_string: '', new_string: 'b' }, ctx())).error).toContain('old_string is empty');
  });

  it('refuses binary files', async () => {
    writeFileSync(join(work, 'b.bin'), Buffer.from([0x61, 0, 0x62]));
    expect((await editFileTool.run({ path: 'b.bin', old_string: 'a', new_string: 'c' }, ctx())).error).toContain('binary');
  });

  it('refuses paths outside the roots, forbidden paths and links leaving the roots, changing nothing', async () => {
    symlinkSync(join(base, 'outside', 'o.txt'), join(work, 'link.txt'));
    const edit = { old_string: 'keep', new_string: 'PWNED' };
    expect((await editFileTool.run({ path: '../outside/o.txt', ...edit }, ctx())).error).toContain('outside the allowed roots');
    expect((await editFileTool.run({ path: join(base, 'outside', 'o.txt'), ...edit }, ctx())).error).toContain('outside the allowed roots');
    expect((await editFileTool.run({ path: 'secret/s.txt', ...edit }, ctx())).error).toContain("forbidden path 'secret'");
    expect((await editFileTool.run({ path: 'link.txt', ...edit }, ctx())).error).toContain('symlink');
    expect(readFileSync(join(base, 'outside', 'o.txt'), 'utf8')).toBe('keep\n');
    expect(readFileSync(join(work, 'secret', 's.txt'), 'utf8')).toBe('keep\n');
  });

  it('asks by default', () => {
    expect(editFileTool.asksByDefault).toBe(true);
  });
});

describe('edit_file preview', () => {
  it('is the diff the edit would make, and writes nothing', async () => {
    file('f.txt', 'a\nb\nc\n');
    const d = await editFileTool.preview!({ path: 'f.txt', old_string: 'b', new_string: 'B' }, ctx());
    expect(d).toMatchObject({ kind: 'diff', path: 'f.txt', added: 1, removed: 1 });
    expect(read('f.txt')).toBe('a\nb\nc\n');
  });

  it('is undefined for any call that would fail', async () => {
    file('f.txt', 'a\n');
    for (const args of [
      { path: 'f.txt', old_string: 'zzz', new_string: 'B' },
      { path: 'nope.txt', old_string: 'a', new_string: 'B' },
      { path: '../outside/o.txt', old_string: 'keep', new_string: 'B' },
      { path: 'f.txt' },
    ]) {
      expect(await editFileTool.preview!(args, ctx())).toBeUndefined();
    }
  });
});

describe('edit_file diffs only the changed part', () => {
  const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  it.each([
    ['the first line', [{ old_string: 'line 1\n', new_string: 'first\n' }]],
    ['the middle', [{ old_string: 'line 25', new_string: 'middle\nmore' }]],
    ['the last line', [{ old_string: 'line 50\n', new_string: 'end' }]],
    ['replace_all', [{ old_string: 'line 1', new_string: 'L1', replace_all: true }]],
    [
      'two places',
      [
        { old_string: 'line 3\n', new_string: '' },
        { old_string: 'line 40', new_string: 'forty' },
      ],
    ],
  ])('%s: the same diff as the whole file', (_what, edits) => {
    const applied = applyEdits(text, edits, 'f');
    if (!applied.ok) throw new Error(applied.error);
    const { created: _c, ...whole } = fileDiff('f', text, applied.text);
    expect(windowedDiff('f', text, applied.text, applied.head, applied.tail)).toEqual(whole);
  });
});
