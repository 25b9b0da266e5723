// A line as coloured pieces, laid out by us (not by Ink's wrapping) so each pane line is
// exactly one terminal row.
import { charWidth, displayWidth, wrapText } from '../text/width.js';

export interface Seg {
  text: string;
  color?: string;
  dim?: boolean;
  bold?: boolean;
}

export type Line = Seg[];

export function lineWidth(line: Line): number {
  let w = 0;
  for (const s of line) w += displayWidth(s.text);
  return w;
}

/** Cuts a line to `width` cells, ending in "…" when something was cut. */
export function fitLine(line: Line, width: number): Line {
  const max = Math.max(1, Math.floor(width));
  if (lineWidth(line) <= max) return line;
  const out: Line = [];
  let used = 0;
  for (const seg of line) {
    let text = '';
    for (const ch of seg.text) {
      const w = charWidth(ch);
      if (used + w > max - 1) {
        if (text) out.push({ ...seg, text });
        out.push({ text: '…', dim: true });
        return out;
      }
      text += ch;
      used += w;
    }
    if (text) out.push({ ...seg, text });
  }
  return out;
}

/** Packs pieces onto lines of `width`, joined by `sep`; a piece never splits unless it is
 * wider than a whole line. */
export function packLines(pieces: Line[], width: number, sep: Seg): Line[] {
  const lines: Line[] = [];
  let cur: Line = [];
  let curW = 0;
  const sepW = displayWidth(sep.text);
  for (const piece of pieces) {
    const w = lineWidth(piece);
    if (cur.length && curW + sepW + w > width) {
      lines.push(cur);
      cur = [];
      curW = 0;
    }
    if (cur.length) {
      cur.push(sep);
      curW += sepW;
    }
    cur.push(...piece);
    curW += w;
  }
  if (cur.length) lines.push(cur);
  return lines.map((l) => fitLine(l, width));
}

/** Word-wraps plain text into single-style lines. */
export function wrapSeg(text: string, width: number, style: Omit<Seg, 'text'> = {}, indent = ''): Line[] {
  const inner = Math.max(1, width - displayWidth(indent));
  return wrapText(text, inner).map((l) => [{ ...style, text: indent + l }]);
}
