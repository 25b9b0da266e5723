// Cards are laid out by us as lines of styled pieces, each exactly one terminal row, so a
// card's height is known before Ink draws it: the live region's budget and the viewer's
// virtual list both depend on that.
import { wrapText } from '../text/width.js';
import { fitLine, type Line, type Seg, type Style } from '../text/segments.js';

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
