// Where an old_string that is not in the file nearly is, so the model can retry with the
// real text: first a window of lines equal to it but for whitespace (the usual miss:
// indentation), else the window most like it by character bigrams, when it is close enough.
import { numberedLine } from './readFile.js';

export interface NearLines {
  from: number;
  to: number;
  /** The window's lines in read_file's numbered form. */
  numbered: string;
}

/** Files longer than this are not searched for a near match (the error stays plain). */
const MAX_FILE_LINES = 200_000;
const MAX_SHOWN_LINES = 20;
const MIN_SIMILARITY = 0.6;
const SHOWN_LINE_CHARS = 500;

const norm = (s: string) => s.trim().replace(/\s+/g, ' ');

function bigrams(s: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

/** Dice coefficient of two strings' bigrams, 0..1. */
function similarity(a: string, b: string, aGrams = bigrams(a)): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const seen = new Map<string, number>();
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const used = seen.get(g) ?? 0;
    if (used < (aGrams.get(g) ?? 0)) shared++;
    seen.set(g, used + 1);
  }
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

function windowScore(file: string[], at: number, want: string[]): number {
  let total = 0;
  for (let j = 0; j < want.length; j++) total += similarity(want[j], file[at + j] ?? '');
  return total / want.length;
}

function shown(lines: string[], start: number, count: number): NearLines {
  const n = Math.min(count, MAX_SHOWN_LINES);
  const out: string[] = [];
  for (let j = 0; j < n; j++) {
    const line = (lines[start + j] ?? '').replace(/\r$/, '');
    out.push(numberedLine(start + j + 1, line.length > SHOWN_LINE_CHARS ? `${line.slice(0, SHOWN_LINE_CHARS)}…` : line));
  }
  return { from: start + 1, to: start + n, numbered: out.join('\n') };
}

/** The lines of `text` nearest to `old`, or undefined when none is near. */
export function closestLines(text: string, old: string): NearLines | undefined {
  const wantRaw = old.replace(/\n$/, '').split('\n');
  const want = wantRaw.map(norm);
  if (want.every((l) => l === '')) return undefined;
  const file = text.split('\n');
  if (file.length > MAX_FILE_LINES) return undefined;
  const normed = file.map(norm);
  // The most telling line of old_string anchors the search.
  let anchor = 0;
  for (let j = 1; j < want.length; j++) if (want[j].length > want[anchor].length) anchor = j;
  const anchorGrams = bigrams(want[anchor]);
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < normed.length; i++) {
    const start = i - anchor;
    if (start < 0 || start + want.length > normed.length) continue;
    const line = normed[i];
    if (line === want[anchor]) {
      if (want.every((w, j) => normed[start + j] === w)) return shown(file, start, want.length);
    } else if (Math.min(line.length, want[anchor].length) < Math.max(line.length, want[anchor].length) / 2) {
      continue;
    } else if (similarity(want[anchor], line, anchorGrams) < MIN_SIMILARITY) {
      continue;
    }
    const score = windowScore(normed, start, want);
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
  }
  return best >= 0 && bestScore >= MIN_SIMILARITY ? shown(file, best, want.length) : undefined;
}
