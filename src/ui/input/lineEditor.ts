// The chat line's editing model: text and a cursor (a UTF-16 offset that always sits on a
// grapheme boundary), changed by pure functions, so a burst of keys applies one after the
// other to the current state whatever React has drawn meanwhile. Emacs/readline keys:
// the key table (config/keySpec.ts) maps keys to these.

export interface EditorState {
  text: string;
  cursor: number;
}

export const EMPTY: EditorState = { text: '', cursor: 0 };

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Graphemes are found in a window around the cursor, never over the whole text (a paste
 * may be megabytes). No grapheme cluster is longer than this in practice. */
const WINDOW = 64;

/** Offset of the grapheme boundary before `at`. */
export function prevBoundary(text: string, at: number): number {
  if (at <= 0) return 0;
  const from = Math.max(0, at - WINDOW);
  let last = from;
  for (const seg of segmenter.segment(text.slice(from, at))) last = from + seg.index;
  return last;
}

/** Offset of the grapheme boundary after `at`. */
export function nextBoundary(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const segments = segmenter.segment(text.slice(at, at + WINDOW));
  const first = segments[Symbol.iterator]().next();
  return first.done ? text.length : at + first.value.segment.length;
}

const WORD = /[\p{L}\p{N}_]/u;
const isWordAt = (text: string, i: number) => WORD.test(String.fromCodePoint(text.codePointAt(i) ?? 32));

export function wordLeftOf(text: string, at: number): number {
  let i = at;
  while (i > 0 && !isWordAt(text, prevBoundary(text, i))) i = prevBoundary(text, i);
  while (i > 0 && isWordAt(text, prevBoundary(text, i))) i = prevBoundary(text, i);
  return i;
}

export function wordRightOf(text: string, at: number): number {
  let i = at;
  while (i < text.length && !isWordAt(text, i)) i = nextBoundary(text, i);
  while (i < text.length && isWordAt(text, i)) i = nextBoundary(text, i);
  return i;
}

export function lineStartOf(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
}

export function lineEndOf(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl < 0 ? text.length : nl;
}

/** Text to put in the line: line breaks as \n, no control characters or escape sequences
 * (a paste may carry colours or stray bytes), tabs kept. */
export function cleanInsert(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- control characters are what it matches
      .replace(/\u001B\[[0-?]*[ -/]*[@-~]|\u001B\][^\u0007\u001B]*(?:\u0007|\u001B\\)?|\u001B[@-_]?/g, '')
      // eslint-disable-next-line no-control-regex -- control characters are what it matches
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
  );
}

export function insert(s: EditorState, raw: string): EditorState {
  const add = cleanInsert(raw);
  if (!add) return s;
  // One concatenation per insert: a megabyte paste is appended once, not per character.
  return { text: s.text.slice(0, s.cursor) + add + s.text.slice(s.cursor), cursor: s.cursor + add.length };
}

export function backspace(s: EditorState): EditorState {
  if (s.cursor === 0) return s;
  const from = prevBoundary(s.text, s.cursor);
  return { text: s.text.slice(0, from) + s.text.slice(s.cursor), cursor: from };
}

export function deleteForward(s: EditorState): EditorState {
  if (s.cursor >= s.text.length) return s;
  const to = nextBoundary(s.text, s.cursor);
  return { text: s.text.slice(0, s.cursor) + s.text.slice(to), cursor: s.cursor };
}

export const moveTo = (s: EditorState, cursor: number): EditorState =>
  cursor === s.cursor ? s : { text: s.text, cursor: Math.max(0, Math.min(s.text.length, cursor)) };

export const left = (s: EditorState) => moveTo(s, prevBoundary(s.text, s.cursor));
export const right = (s: EditorState) => moveTo(s, nextBoundary(s.text, s.cursor));
export const wordLeft = (s: EditorState) => moveTo(s, wordLeftOf(s.text, s.cursor));
export const wordRight = (s: EditorState) => moveTo(s, wordRightOf(s.text, s.cursor));
export const lineStart = (s: EditorState) => moveTo(s, lineStartOf(s.text, s.cursor));
export const lineEnd = (s: EditorState) => moveTo(s, lineEndOf(s.text, s.cursor));

/** Removes [from, to) and returns the state and the removed text (for the kill buffer). */
function cut(s: EditorState, from: number, to: number): { state: EditorState; killed: string } {
  if (from >= to) return { state: s, killed: '' };
  return { state: { text: s.text.slice(0, from) + s.text.slice(to), cursor: from }, killed: s.text.slice(from, to) };
}

export const killToStart = (s: EditorState) => cut(s, lineStartOf(s.text, s.cursor), s.cursor);
/** To the end of the line; at the end of a line, the line break (joins the next line). */
export function killToEnd(s: EditorState) {
  const end = lineEndOf(s.text, s.cursor);
  return cut(s, s.cursor, end === s.cursor && end < s.text.length ? end + 1 : end);
}
export const killWordBack = (s: EditorState) => cut(s, wordLeftOf(s.text, s.cursor), s.cursor);

/** The kill buffer after a kill, as readline keeps it: a kill straight after another kill
 * joins it (two Ctrl+W then Ctrl+Y give both words back), a backward kill (Ctrl+W, Ctrl+U)
 * in front of it and a forward one (Ctrl+K) after; any other key starts a new buffer. */
export function joinKill(buffer: string, killed: string, backward: boolean, afterKill: boolean): string {
  if (!afterKill) return killed;
  return backward ? killed + buffer : buffer + killed;
}

function columnOf(text: string, lineStart: number, at: number): number {
  let w = 0;
  for (const ch of text.slice(lineStart, at)) w += cellWidth(ch);
  return w;
}

function offsetAtColumn(text: string, lineStart: number, column: number): number {
  const end = lineEndOf(text, lineStart);
  let w = 0;
  let i = lineStart;
  while (i < end) {
    const next = nextBoundary(text, i);
    const cw = cellWidth(text.slice(i, next));
    if (w + cw > column) break;
    w += cw;
    i = next;
  }
  return i;
}

/** ↑ inside a multi-line message: the same column one line up; undefined on the first line. */
export function lineUp(s: EditorState): EditorState | undefined {
  const start = lineStartOf(s.text, s.cursor);
  if (start === 0) return undefined;
  const prevStart = lineStartOf(s.text, start - 1);
  return moveTo(s, offsetAtColumn(s.text, prevStart, columnOf(s.text, start, s.cursor)));
}

/** ↓ inside a multi-line message; undefined on the last line. */
export function lineDown(s: EditorState): EditorState | undefined {
  const end = lineEndOf(s.text, s.cursor);
  if (end >= s.text.length) return undefined;
  const start = lineStartOf(s.text, s.cursor);
  return moveTo(s, offsetAtColumn(s.text, end + 1, columnOf(s.text, start, s.cursor)));
}

// ---- layout ----

const WIDE = /\p{Extended_Pictographic}/u;

/** Cells a grapheme takes; tabs show as one space. */
export function cellWidth(g: string): number {
  const cp = g.codePointAt(0) ?? 0;
  if (cp < 0x7f) return cp === 0x09 || cp >= 0x20 ? 1 : 0;
  if (cp < 0x300) return 1;
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
  if (/^\p{Mn}|^\p{Me}/u.test(g) || cp === 0x200b || cp === 0x200d) return 0;
  if (cp >= 0x1f000 && WIDE.test(g)) return 2;
  // An emoji presentation selector makes a text-style symbol wide.
  if (g.includes('\ufe0f')) return 2;
  return 1;
}

/** The text laid out in rows of at most `width` cells: where each row starts in the text. */
export interface InputLayout {
  width: number;
  text: string;
  /** Offsets where rows start; a row ends where the next one starts (or at a \n). */
  starts: number[];
}

/** Character wrap (not word wrap), so every offset has one place on screen. ASCII runs
 * take a fast path: a pasted megabyte lays out in milliseconds. */
export function layoutInput(text: string, width: number): InputLayout {
  const max = Math.max(2, width);
  const starts = [0];
  let col = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      i++;
      starts.push(i);
      col = 0;
      continue;
    }
    let next: number;
    let w: number;
    if (c >= 0x20 && c < 0x7f) {
      const after = text.charCodeAt(i + 1);
      // A combining mark or joiner after an ASCII letter makes it a longer grapheme.
      if (i + 1 < n && after >= 0x300) {
        next = nextBoundary(text, i);
        w = cellWidth(text.slice(i, next));
      } else {
        next = i + 1;
        w = 1;
      }
    } else if (c === 0x09) {
      next = i + 1;
      w = 1;
    } else {
      next = nextBoundary(text, i);
      w = cellWidth(text.slice(i, next));
    }
    if (col + w > max && col > 0) {
      starts.push(i);
      col = 0;
    }
    col += w;
    i = next;
  }
  return { width: max, text, starts };
}

/** The row holding offset `at` (a cursor at a wrap point shows at the start of the next row). */
export function rowOf(layout: InputLayout, at: number): number {
  let lo = 0;
  let hi = layout.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (layout.starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The text of row `r`, without its line break. */
export function rowText(layout: InputLayout, r: number): { from: number; to: number } {
  const from = layout.starts[r];
  let to = r + 1 < layout.starts.length ? layout.starts[r + 1] : layout.text.length;
  if (to > from && layout.text.charCodeAt(to - 1) === 0x0a) to--;
  return { from, to };
}
