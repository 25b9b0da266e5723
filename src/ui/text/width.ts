// Terminal cell widths and wrapping for text the UI lays out itself (the streaming tail,
// tool-card lines, budgets). Ink wraps rendered text on its own; we need our own count
// to keep the live region shorter than the terminal.

// Widths come from string-width, the same measure Ink lays text out with: if ours differed
// (emoji presentation, skin tones, ZWJ sequences), a row we budgeted as fitting would wrap
// in Ink and the live region would outgrow the terminal.
import stringWidth from 'string-width';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const segmenter = new Intl.Segmenter();
// A grapheme's width is asked for again and again (every frame re-wraps the live tail);
// string-width segments and tests several Unicode properties per call.
const clusterWidths = new Map<string, number>();
const CLUSTER_CACHE_MAX = 4096;

/** Width of one grapheme cluster (or of one code point, for callers that iterate those). */
export function charWidth(cluster: string): number {
  if (cluster.length === 1) {
    const cp = cluster.charCodeAt(0);
    if (cp >= 0x20 && cp < 0x7f) return 1;
  }
  let w = clusterWidths.get(cluster);
  if (w === undefined) {
    w = stringWidth(cluster);
    if (clusterWidths.size >= CLUSTER_CACHE_MAX) clusterWidths.clear();
    clusterWidths.set(cluster, w);
  }
  return w;
}

/** The grapheme clusters of `text`: what a terminal draws as one character. */
export function* graphemes(text: string): Generator<string> {
  if (PRINTABLE_ASCII.test(text)) {
    for (let i = 0; i < text.length; i++) yield text[i];
    return;
  }
  for (const { segment } of segmenter.segment(text)) yield segment;
}

export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let w = 0;
  for (const g of graphemes(text)) w += charWidth(g);
  return w;
}

/** Tabs and stray carriage returns would throw our column count off; show them as spaces. */
export function sanitizeLine(line: string): string {
  return line.replace(/\t/g, '    ').replace(/\r/g, '');
}

/** Greedy word wrap of one logical line; words longer than the width are cut. */
export function wrapLine(rawLine: string, width: number): string[] {
  const max = Math.max(1, Math.floor(width));
  const line = sanitizeLine(rawLine);
  if (line.length <= max && displayWidth(line) <= max) return [line];
  const out: string[] = [];
  let cur = '';
  let curW = 0;
  let lastSpace = -1;
  for (const ch of graphemes(line)) {
    const w = charWidth(ch);
    while (curW + w > max && cur.length > 0) {
      if (ch === ' ') {
        out.push(cur);
        cur = '';
        curW = 0;
        lastSpace = -1;
        break;
      }
      if (lastSpace > 0) {
        out.push(cur.slice(0, lastSpace));
        cur = cur.slice(lastSpace + 1);
        curW = displayWidth(cur);
      } else {
        out.push(cur);
        cur = '';
        curW = 0;
      }
      lastSpace = -1;
    }
    if (ch === ' ' && cur.length === 0 && out.length > 0) continue;
    if (ch === ' ') lastSpace = cur.length;
    cur += ch;
    curW += w;
  }
  out.push(cur);
  return out;
}

export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) out.push(...wrapLine(line, width));
  return out;
}

export interface Tail {
  lines: string[];
  /** True when lines above the tail were left out. */
  truncated: boolean;
}

/** The last `max` wrapped lines of `text`. Walks backwards so a long reply costs only its
 * tail per frame, not the whole text. */
export function tailLines(text: string, width: number, max: number): Tail {
  const limit = Math.max(1, Math.floor(max));
  const acc: string[] = [];
  let end = text.length;
  // Only the end of a long paragraph can be shown: wrapping all of it on every frame would
  // make a streamed reply quadratic. Wrapping from a word boundary inside the tail can
  // differ slightly from wrapping the whole paragraph; the live view is transient, and the
  // finished reply is wrapped in full once.
  const tailChars = (limit + 2) * Math.max(1, width) * 2;
  for (;;) {
    const nl = end > 0 ? text.lastIndexOf('\n', end - 1) : -1;
    let segment = text.slice(nl + 1, end);
    let clipped = false;
    if (segment.length > tailChars) {
      segment = segment.slice(-tailChars);
      const space = segment.indexOf(' ');
      if (space >= 0 && space < width) segment = segment.slice(space + 1);
      clipped = true;
    }
    const wrapped = wrapLine(segment, width);
    if (clipped && wrapped.length >= limit) return { lines: wrapped.slice(-limit), truncated: true };
    for (let i = wrapped.length - 1; i >= 0; i--) {
      if (acc.length === limit) return { lines: acc.reverse(), truncated: true };
      acc.push(wrapped[i]);
    }
    if (nl < 0) break;
    end = nl;
  }
  return { lines: acc.reverse(), truncated: false };
}

/** Cuts to a display width, ending in "…" when something was cut. */
export function truncate(text: string, width: number): string {
  const max = Math.max(1, Math.floor(width));
  if (displayWidth(text) <= max) return text;
  let out = '';
  let w = 0;
  for (const ch of graphemes(text)) {
    const cw = charWidth(ch);
    if (w + cw > max - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}
