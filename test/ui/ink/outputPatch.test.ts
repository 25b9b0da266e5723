// arbor's Ink (vendor/ink, see its README) composes each row of Output from its writes as
// strings instead of a grid of one object per cell. These tests hold the fast path to what
// the cell grid (kept for rows whose writes overlap) draws, and the whole Output to the
// unchanged upstream Ink 6.8.0 (the ink-upstream dev dependency): the same characters in
// the same columns with the same styles.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { styledCharsFromTokens, tokenize } from '@alcalzone/ansi-tokenize';

type OutputClass = new (o: { width: number; height: number }) => {
  write(x: number, y: number, text: string, o: { transformers: ((s: string, i: number) => string)[] }): void;
  clip(c: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
  composeRow(writes: { x: number; line: string }[]): string;
  composeRowFromCells(writes: { x: number; line: string }[]): string;
};

// Ink's package exports only its entry point; Output is loaded by path.
const inkDir = new URL('../../../node_modules/ink/', import.meta.url);
const { default: Output } = (await import(new URL('build/output.js', inkDir).href)) as { default: OutputClass };
const { default: UpstreamOutput } = (await import(new URL('../../../node_modules/ink-upstream/build/output.js', import.meta.url).href)) as {
  default: OutputClass;
};

const ESC = '\u001B';
const red = (s: string) => `${ESC}[31m${s}${ESC}[39m`;
const bold = (s: string) => `${ESC}[1m${s}${ESC}[22m`;

/** Each column's character and the styles in force there, as a terminal would show it. */
function cells(row: string) {
  return styledCharsFromTokens(tokenize(row)).map((c) => `${c.value}|${c.styles.map((s) => s.code).join(',')}`);
}

describe('the patched Ink output', () => {
  it('is the Ink every import of "ink" gets: node_modules/ink links to vendor/ink', () => {
    expect(realpathSync(fileURLToPath(inkDir))).toBe(fileURLToPath(new URL('../../../vendor/ink', import.meta.url)));
    expect(typeof Output.prototype.composeRow).toBe('function');
    expect(typeof UpstreamOutput.prototype.composeRow).toBe('undefined');
  });

  const rows: [string, { x: number; line: string }[]][] = [
    ['plain text at the left edge', [{ x: 0, line: 'hello world' }]],
    [
      'writes with gaps between them',
      [
        { x: 2, line: 'a' },
        { x: 10, line: 'bcd' },
        { x: 20, line: 'e' },
      ],
    ],
    [
      'styled writes side by side',
      [
        { x: 0, line: red('● ') },
        { x: 2, line: bold('child-1') },
        { x: 10, line: `${ESC}[2mrunning 1.2s${ESC}[22m` },
      ],
    ],
    [
      'wide characters',
      [
        { x: 0, line: '日本語' },
        { x: 6, line: red('→ ok') },
        { x: 11, line: '🙂 done' },
      ],
    ],
    [
      'a style left open by its write',
      [
        { x: 0, line: `${ESC}[32mopen` },
        { x: 6, line: 'after' },
      ],
    ],
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

  // Whole frames through Output.write and get(), as Ink's renderer drives it, upstream and changed.
  const frames: [string, (out: InstanceType<OutputClass>) => void][] = [
    [
      'text, styles and gaps on several rows',
      (o) => {
        o.write(0, 0, `${red('● ')}child-1 ${bold('running')}`, { transformers: [] });
        o.write(4, 1, 'second row\nthird row', { transformers: [] });
        o.write(30, 1, `${ESC}[2m1.2s${ESC}[22m`, { transformers: [] });
      },
    ],
    [
      'wide characters and emoji',
      (o) => {
        o.write(0, 0, '日本語 text', { transformers: [] });
        o.write(12, 0, red('🙂 ok'), { transformers: [] });
      },
    ],
    [
      'overlapping writes, the later one winning',
      (o) => {
        o.write(0, 0, 'aaaaaaaaaaaaaaaaaaaa', { transformers: [] });
        o.write(5, 0, bold('XYZ'), { transformers: [] });
        o.write(7, 0, red('日'), { transformers: [] });
      },
    ],
    [
      'transformers, clipping and trailing spaces',
      (o) => {
        o.clip({ x1: 1, x2: 12, y1: 0, y2: 3 });
        o.write(0, 0, 'abcdefghijklmnop\nqrstuvwxyz   \n123', { transformers: [(s, i) => `${i}${s}`] });
        o.unclip();
      },
    ],
  ];
  for (const [what, draw] of frames) {
    it(`draws the same frame as upstream Ink 6.8.0: ${what}`, () => {
      const ours = new Output({ width: 40, height: 4 });
      const upstream = new UpstreamOutput({ width: 40, height: 4 });
      draw(ours);
      draw(upstream);
      const a = ours.get();
      const b = upstream.get();
      expect(a.height).toBe(b.height);
      expect(a.output.split('\n').map(cells)).toEqual(b.output.split('\n').map(cells));
    });
  }
});
