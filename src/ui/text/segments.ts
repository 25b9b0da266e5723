// A line as styled pieces, laid out by us (not by Ink's wrapping) so each line is exactly one
// terminal row: panes and cards know their height before Ink draws them.
import { charWidth, displayWidth, graphemes } from './width.js';

export interface Seg {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export type Line = Seg[];

export type Style = Omit<Seg, 'text'>;

/** Same pieces with the same styles: a line rebuilt on every refresh usually is. */
export function sameLine(a: Line, b: Line): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.text !== y.text || x.color !== y.color || x.bold !== y.bold || x.dim !== y.dim || x.inverse !== y.inverse) return false;
  }
  return true;
}

export function lineWidth(line: Line): number {
  let w = 0;
  for (const seg of line) w += displayWidth(seg.text);
  return w;
}

/** Cuts a line to `width` cells; "…" marks the cut. */
export function fitLine(line: Line, width: number): Line {
  const max = Math.max(1, Math.floor(width));
  if (lineWidth(line) <= max) return line;
  const out: Line = [];
  let used = 0;
  for (const seg of line) {
    let text = '';
    for (const ch of graphemes(seg.text)) {
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
