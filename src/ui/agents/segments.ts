// Packing and wrapping pane lines (the line type itself is shared: ../text/segments.ts).
import { displayWidth, wrapText } from '../text/width.js';
import { fitLine, lineWidth, type Line, type Seg } from '../text/segments.js';

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
