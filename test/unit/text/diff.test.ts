// The diff display tools record and views read: hunks with real line numbers, whole-change
// counts, created files, CRLF, caps, and the shared-ends shortcut on a large file.
import { describe, expect, it } from 'vitest';
import { diffCounts, fileDiff, hunkRows } from '../../../src/text/diff.js';

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`) => Array.from({ length: n }, (_, i) => `${f(i + 1)}\n`).join('');

describe('fileDiff', () => {
  it('a one-line change in the middle: one hunk, three lines of context, real line numbers', () => {
    const before = lines(20);
    const after = before.replace('line 10\n', 'line ten\n');
    const d = fileDiff('src/a.ts', before, after);
    expect(d).toMatchObject({ kind: 'diff', path: 'src/a.ts', added: 1, removed: 1 });
    expect(d.created).toBeUndefined();
    expect(d.truncated).toBeUndefined();
    expect(d.hunks).toHaveLength(1);
    expect(d.hunks[0]).toMatchObject({ oldStart: 7, oldLines: 7, newStart: 7, newLines: 7 });
    expect(d.hunks[0].lines).toEqual([' line 7', ' line 8', ' line 9', '-line 10', '+line ten', ' line 11', ' line 12', ' line 13']);
    const rows = hunkRows(d.hunks[0]);
    expect(rows[3]).toEqual({ kind: 'remove', oldLine: 10, text: 'line 10' });
    expect(rows[4]).toEqual({ kind: 'add', newLine: 10, text: 'line ten' });
    expect(rows[5]).toEqual({ kind: 'context', oldLine: 11, newLine: 11, text: 'line 11' });
    expect(diffCounts(d)).toBe('+1 \u22121');
  });

  it('changes far apart are separate hunks; counts cover all of them', () => {
    const before = lines(100);
    const after = before.replace('line 5\n', 'five\n').replace('line 90\n', 'ninety\nand more\n');
    const d = fileDiff('a', before, after);
    expect(d.hunks.map((h) => [h.oldStart, h.newStart])).toEqual([
      [2, 2],
      [87, 87],
    ]);
    expect([d.added, d.removed]).toEqual([3, 2]);
  });

  it('a new file is created: every line added, starting at line 1', () => {
    const d = fileDiff('new.txt', undefined, 'a\nb\nc\n');
    expect(d).toMatchObject({ created: true, added: 3, removed: 0 });
    expect(d.hunks).toEqual([{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 3, lines: ['+a', '+b', '+c'] }]);
    expect(fileDiff('empty', undefined, '')).toMatchObject({ created: true, added: 0, removed: 0, hunks: [] });
  });

  it('identical content has no hunks', () => {
    expect(fileDiff('a', 'x\ny\n', 'x\ny\n')).toMatchObject({ hunks: [], added: 0, removed: 0 });
  });

  it('a lost final newline shows the no-newline marker; CRLF lines show without their CR', () => {
    const d = fileDiff('a', 'a\nb\n', 'a\nb');
    expect(d.hunks[0].lines).toContain('\\ No newline at end of file');
    expect([d.added, d.removed]).toEqual([1, 1]);
    const crlf = fileDiff('w', 'one\r\ntwo\r\n', 'one\r\n2\r\n');
    expect(crlf.hunks[0].lines).toEqual([' one', '-two', '+2']);
  });

  it('cuts hunks at the byte cap and long lines at the line cap, keeping the full counts', () => {
    const d = fileDiff('big', undefined, lines(1000), { maxBytes: 200 });
    expect(d.truncated).toBe(true);
    expect(d.added).toBe(1000);
    const kept = d.hunks.flatMap((h) => h.lines);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.join('\n').length).toBeLessThanOrEqual(200);
    const wide = fileDiff('wide', 'x\n', `${'y'.repeat(50)}\n`, { maxLineChars: 10 });
    expect(wide.truncated).toBe(true);
    expect(wide.hunks[0].lines[1]).toBe(`+${'y'.repeat(10)}…`);
  });

  it('an edit in a 10 MB file diffs only the lines around it', () => {
    const before = lines(200_000, (i) => `const value${i} = ${i}; // padding padding padding`);
    const after = before.replace('const value100000 = 100000;', 'const value100000 = -1;');
    const started = performance.now();
    const d = fileDiff('huge.ts', before, after);
    const ms = performance.now() - started;
    expect(before.length).toBeGreaterThan(10_000_000);
    expect([d.added, d.removed]).toEqual([1, 1]);
    expect(d.hunks[0].oldStart).toBe(99_997);
    expect(d.hunks[0].lines).toHaveLength(8);
    // Generous for a loaded machine (it takes a few ms); a whole-file diff takes seconds.
    expect(ms).toBeLessThan(1000);
  });
});
