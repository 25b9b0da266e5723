// The diff of one file's change, as a tool result's display (model/toolDisplay.ts), built
// on jsdiff's structuredPatch: tools make it, and cards, the approval prompt and the
// ledger read it. The lines both versions share at the start and the end are set aside
// before jsdiff runs, so an edit in the middle of a 10 MB file diffs only the lines around
// it; the hunks keep the file's real line numbers.
import { structuredPatch } from 'diff';
import type { DiffDisplay, DiffHunk } from '../model/toolDisplay.js';

export interface DiffOptions {
  /** Unchanged lines shown around each change. */
  context?: number;
  /** Bytes of hunk lines kept; the rest is cut and the display marked truncated. */
  maxBytes?: number;
  /** A line longer than this is cut to it (with a marker) in the display. */
  maxLineChars?: number;
  /** jsdiff gives up after this long; the change is then shown as one replaced block. */
  timeoutMs?: number;
}

export const DIFF_CONTEXT_LINES = 3;
/** What a recorded diff keeps (the session file holds it beside the 16 KiB result). */
export const DIFF_RECORD_CAP_BYTES = 64 * 1024;
export const DIFF_LINE_CAP_CHARS = 1000;
const DIFF_TIMEOUT_MS = 2000;
const CUT_MARK = '…';

/** The lines of `text`, each keeping its terminator, so a slice rejoins to the exact text. */
function linesOf(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\n)/);
}

const CHUNK = 64 * 1024;

/** Characters both strings start with: compared a chunk at a time, which is native and
 * fast, then character by character inside the first chunk that differs. */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i + CHUNK <= max && a.slice(i, i + CHUNK) === b.slice(i, i + CHUNK)) i += CHUNK;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Characters both strings end with, at most `max`. */
function commonSuffix(a: string, b: string, max: number): number {
  let n = 0;
  while (n + CHUNK <= max && a.slice(a.length - n - CHUNK, a.length - n) === b.slice(b.length - n - CHUNK, b.length - n)) n += CHUNK;
  while (n < max && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

function newlinesIn(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Back from `at` (a line start) by up to `lines` whole lines. */
function backLines(text: string, at: number, lines: number): number {
  let pos = at;
  for (let i = 0; i < lines && pos > 0; i++) pos = pos <= 1 ? 0 : text.lastIndexOf('\n', pos - 2) + 1;
  return pos;
}

/** Forward from `at` (a line start) by up to `lines` whole lines. */
function forwardLines(text: string, at: number, lines: number): number {
  let pos = at;
  for (let i = 0; i < lines && pos < text.length; i++) {
    const nl = text.indexOf('\n', pos);
    pos = nl === -1 ? text.length : nl + 1;
  }
  return pos;
}

/** The change as one block: every old line of the middle removed, every new one added. */
function replacedBlock(oldMid: string[], newMid: string[], oldStart: number, newStart: number): DiffHunk {
  const strip = (l: string) => l.replace(/\r?\n$/, '');
  const lines = [...oldMid.map((l) => `-${strip(l)}`), ...newMid.map((l) => `+${strip(l)}`)];
  return { oldStart: oldStart + 1, oldLines: oldMid.length, newStart: newStart + 1, newLines: newMid.length, lines };
}

function rawHunks(before: string, after: string, context: number, timeoutMs: number): DiffHunk[] {
  if (before === after) return [];
  // The shared start and end, on line boundaries: only what lies between them is diffed.
  const prefix = commonPrefix(before, after);
  const head = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  const suffix = commonSuffix(before, after, Math.min(before.length, after.length) - head);
  // The shared end starts after a newline inside the shared characters, so it starts a
  // line in both versions.
  let tail = 0;
  if (suffix > 0) {
    const nl = before.indexOf('\n', before.length - suffix);
    if (nl !== -1) tail = before.length - (nl + 1);
  }
  const from = backLines(before, head, context);
  const aTo = forwardLines(before, before.length - tail, context);
  const bTo = after.length - (before.length - aTo);
  const offset = newlinesIn(before, 0, from);
  const oldPart = before.slice(from, aTo);
  const newPart = after.slice(from, bTo);
  const patch = structuredPatch('a', 'b', oldPart, newPart, undefined, undefined, { context, timeout: timeoutMs });
  if (!patch) {
    const headLines = newlinesIn(before, 0, head);
    return [
      replacedBlock(
        linesOf(before.slice(head, before.length - tail)),
        linesOf(after.slice(head, after.length - tail)),
        headLines,
        headLines,
      ),
    ];
  }
  return patch.hunks.map((h) => ({
    oldStart: h.oldStart + offset,
    oldLines: h.oldLines,
    newStart: h.newStart + offset,
    newLines: h.newLines,
    // A CRLF file's lines carry their CR: the display shows the line, not its ending.
    lines: h.lines.map((l) => l.replace(/\r$/, '')),
  }));
}

function countLines(hunks: DiffHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}

/** Hunks under the byte and line-length caps; `cut` when anything was left out. */
function capHunks(hunks: DiffHunk[], maxBytes: number, maxLineChars: number): { hunks: DiffHunk[]; cut: boolean } {
  const out: DiffHunk[] = [];
  let bytes = 0;
  let cut = false;
  for (const h of hunks) {
    const lines: string[] = [];
    for (const raw of h.lines) {
      const line = raw.length > maxLineChars + 1 ? `${raw.slice(0, maxLineChars + 1)}${CUT_MARK}` : raw;
      if (line !== raw) cut = true;
      const size = Buffer.byteLength(line, 'utf8') + 1;
      if (bytes + size > maxBytes) {
        if (lines.length > 0) out.push({ ...h, lines });
        return { hunks: out, cut: true };
      }
      bytes += size;
      lines.push(line);
    }
    out.push({ ...h, lines });
  }
  return { hunks: out, cut };
}

/** The diff display of `path` going from `before` (undefined: the file did not exist) to
 * `after`. `added`/`removed` always count the whole change, even when hunks are cut. */
export function fileDiff(path: string, before: string | undefined, after: string, opts: DiffOptions = {}): DiffDisplay {
  const context = opts.context ?? DIFF_CONTEXT_LINES;
  const full =
    before === undefined
      ? after === ''
        ? []
        : [replacedBlock([], linesOf(after), -1, 0)]
      : rawHunks(before, after, context, opts.timeoutMs ?? DIFF_TIMEOUT_MS);
  const { added, removed } = countLines(full);
  const { hunks, cut } = capHunks(full, opts.maxBytes ?? DIFF_RECORD_CAP_BYTES, opts.maxLineChars ?? DIFF_LINE_CAP_CHARS);
  return {
    kind: 'diff',
    path,
    hunks,
    added,
    removed,
    ...(before === undefined ? { created: true } : {}),
    ...(cut ? { truncated: true } : {}),
  };
}

/** One rendered row of a diff: the old and new line numbers (absent on the side a line is
 * not on) and the line without its prefix. */
export interface DiffRow {
  kind: 'context' | 'add' | 'remove' | 'note';
  oldLine?: number;
  newLine?: number;
  text: string;
}

/** The rows of a hunk with their line numbers, for views that number them. */
export function hunkRows(hunk: DiffHunk): DiffRow[] {
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  return hunk.lines.map((line): DiffRow => {
    const text = line.slice(1);
    switch (line[0]) {
      case '+':
        return { kind: 'add', newLine: newLine++, text };
      case '-':
        return { kind: 'remove', oldLine: oldLine++, text };
      case '\\':
        return { kind: 'note', text };
      default:
        return { kind: 'context', oldLine: oldLine++, newLine: newLine++, text };
    }
  });
}

/** "+12 −3": the summary a card, a headless line and the approval header show. */
export function diffCounts(d: Pick<DiffDisplay, 'added' | 'removed'>): string {
  return `+${d.added} \u2212${d.removed}`;
}
