// Terminal cell widths and wrapping for text the UI lays out itself (the streaming tail,
// tool-card lines, budgets). Ink wraps rendered text on its own; we need our own count
// to keep the live region shorter than the terminal.

const MARK = /\p{Mn}|\p{Me}/u;
const PICTO = /\p{Extended_Pictographic}/u;

export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (cp < 0x300) return 1;
  if (MARK.test(ch)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  if (cp >= 0x1f000 && PICTO.test(ch)) return 2;
  return 1;
}

export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
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
  for (const ch of line) {
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
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > max - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}
