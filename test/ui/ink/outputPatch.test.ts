// arbor patches Ink's Output (patches/ink+6.8.0.patch) to compose each row from its writes
// as strings instead of a grid of one object per cell. These tests hold the fast path to
// what the cell grid (kept in the patch for rows whose writes overlap) draws: the same
// characters in the same columns with the same styles.
import { describe, expect, it } from 'vitest';
import { styledCharsFromTokens, tokenize } from '@alcalzone/ansi-tokenize';

// Ink's package exports only its entry point; the patched module is loaded by path.
const { default: Output } = (await import(new URL('../../../node_modules/ink/build/output.js', import.meta.url).href)) as {
  default: new (o: { width: number; height: number }) => {
    write(x: number, y: number, text: string, o: { transformers: ((s: string, i: number) => string)[] }): void;
    clip(c: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
    unclip(): void;
    get(): { output: string; height: number };
    composeRow(writes: { x: number; line: string }[]): string;
    composeRowFromCells(writes: { x: number; line: string }[]): string;
  };
};

const ESC = '\u001B';
const red = (s: string) => `${ESC}[31m${s}${ESC}[39m`;
const bold = (s: string) => `${ESC}[1m${s}${ESC}[22m`;

/** Each column's character and the styles in force there, as a terminal would show it. */
function cells(row: string) {
  return styledCharsFromTokens(tokenize(row)).map((c) => `${c.value}|${c.styles.map((s) => s.code).join(',')}`);
}

describe('the patched Ink output', () => {
  it('is installed (npm install applies patches/ with patch-package)', () => {
    expect(typeof Output.prototype.composeRow).toBe('function');
  });

  const rows: [string, { x: number; line: string }[]][] = [
    ['plain text at the left edge', [{ x: 0, line: 'hello world' }]],
    ['writes with gaps between them', [{ x: 2, line: 'a' }, { x: 10, line: 'bcd' }, { x: 20, line: 'e' }]],
    ['styled writes side by side', [{ x: 0, line: red('● ') }, { x: 2, line: bold('child-1') }, { x: 10, line: `${ESC}[2mrunning 1.2s${ESC}[22m` }]],
    ['wide characters', [{ x: 0, line: '日本語' }, { x: 6, line: red('→ ok') }, { x: 11, line: '🙂 done' }]],
    ['a style left open by its write', [{ x: 0, line: `${ESC}[32mopen` }, { x: 6, line: 'after' }]],
  ];
  for (const [what, writes] of rows) {
    it(`draws the same cells as the cell grid: ${what}`, () => {
      const out = new Output({ width: 40, height: 1 });
      expect(cells(out.composeRow(writes))).toEqual(cells(out.composeRowFromCells(writes)));
    });
  }

  it('falls back to the cell grid where writes overlap, the later write winning', () => {
    const out = new Output({ width: 20, height: 1 });
    out.write(0, 0, 'aaaaaaaaaa', { transformers: [] });
    out.write(3, 0, red('XY'), { transformers: [] });
    const row = out.get().output;
    expect(row.replace(/\u001B\[\d+m/g, '')).toBe('aaaXYaaaaa');
    expect(cells(row)[3]).toBe('X|\u001B[31m');
    expect(cells(row)[5]).toBe('a|');
  });

  it('places multi-line writes on consecutive rows, applies transformers per line and trims the right edge', () => {
    const out = new Output({ width: 30, height: 4 });
    out.write(2, 1, 'one\ntwo   ', { transformers: [(s, i) => `${i}:${s}`] });
    const { output, height } = out.get();
    expect(height).toBe(4);
    expect(output.split('\n')).toEqual(['', '  0:one', '  1:two', '']);
  });

  it('clips writes to the clip rectangle', () => {
    const out = new Output({ width: 20, height: 3 });
    out.clip({ x1: 2, x2: 6, y1: 1, y2: 2 });
    out.write(0, 0, 'abcdefghij\nklmnopqrst\nuvwxyz', { transformers: [] });
    out.unclip();
    expect(out.get().output.split('\n')).toEqual(['', '  mnop', '']);
  });
});
