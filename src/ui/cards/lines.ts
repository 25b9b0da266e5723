// Cards are laid out by us as lines of styled pieces, each exactly one terminal row, so a
// card's height is known before Ink draws it: the live region's budget and the viewer's
// virtual list both depend on that.
import { charWidth, displayWidth, wrapText } from '../text/width.js';

export interface Seg {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export type Line = Seg[];

export type Style = Omit<Seg, 'text'>;

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

/** Word-wraps text under an indent; every line keeps the indent so blocks read as blocks. */
export function wrapBlock(text: string, width: number, indent: number, style: Style = {}): Line[] {
  const pad = ' '.repeat(Math.max(0, indent));
  const inner = Math.max(1, width - indent);
  return wrapText(text, inner).map((l) => [{ text: pad }, { ...style, text: l }]);
}

/** A single row: pieces joined, then cut to the width. */
export function row(width: number, ...segs: Array<Seg | false | undefined | null | ''>): Line {
  return fitLine(
    segs.filter((s): s is Seg => !!s && typeof s === 'object' && s.text !== ''),
    width,
  );
}

/** Plain text of a line (search, tests). */
export function lineText(line: Line): string {
  return line.map((s) => s.text).join('');
}

/** Splits pieces so every case-insensitive occurrence of `needle` is its own inverse piece. */
export function highlight(line: Line, needle: string): Line {
  if (!needle) return line;
  const n = needle.toLowerCase();
  const out: Line = [];
  for (const seg of line) {
    const lower = seg.text.toLowerCase();
    let from = 0;
    let at = lower.indexOf(n);
    if (at < 0 || lower.length !== seg.text.length) {
      out.push(seg);
      continue;
    }
    while (at >= 0) {
      if (at > from) out.push({ ...seg, text: seg.text.slice(from, at) });
      out.push({ ...seg, text: seg.text.slice(at, at + n.length), inverse: true, color: 'yellow', dim: false });
      from = at + n.length;
      at = lower.indexOf(n, from);
    }
    if (from < seg.text.length) out.push({ ...seg, text: seg.text.slice(from) });
  }
  return out;
}
