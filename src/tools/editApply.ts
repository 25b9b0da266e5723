// What edit_file does to a file's text, without any I/O: every edit applied in order to
// the text in memory, or the first edit that cannot apply and why. A CRLF file is edited
// in LF form (the model reads its lines without the CR) and turned back into CRLF, and a
// final newline the file had is kept, so an edit never changes how the file's lines end.
import { closestLines } from './closestLines.js';

export interface Edit {
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

export const EDIT_NOT_FOUND = (p: string) => `old_string not found in ${p}`;
export const EDIT_AMBIGUOUS = (n: number, p: string) =>
  `old_string matches ${n} places in ${p}; add surrounding lines to make it unique or set replace_all`;
export const EDIT_IDENTICAL = 'old_string and new_string are the same';
export const EDIT_EMPTY_OLD = 'old_string is empty; give the exact text to replace (write_file creates or rewrites a whole file)';
export const EDIT_CLOSEST = (from: number, to: number) =>
  from === to ? `The closest match is line ${from}:` : `The closest match is lines ${from}-${to}:`;
export const EDIT_WHICH = (i: number, n: number) => `(edit ${i} of ${n}; none of the ${n} edits was written)`;

/** `head`/`tail`: characters at the start and the end the edit left as they were (for a
 * diff of only the changed part); both 0 when not known (a CRLF file). */
export type Applied = { ok: true; text: string; replacements: number; head: number; tail: number } | { ok: false; error: string };

/** Refusals that need no file: an empty or unchanged old_string. */
export function checkEdits(edits: readonly Edit[]): string | undefined {
  for (const [i, e] of edits.entries()) {
    const problem = e.old_string === '' ? EDIT_EMPTY_OLD : e.old_string === e.new_string ? EDIT_IDENTICAL : undefined;
    if (problem) return withWhich(problem, i, edits.length);
  }
  return undefined;
}

function withWhich(error: string, i: number, n: number): string {
  return n > 1 ? `${error}\n${EDIT_WHICH(i + 1, n)}` : error;
}

/** Every '\n' of `text` ends a CRLF. */
function isCrlf(text: string): boolean {
  // One native scan settles the usual case: no CRLF at all.
  if (!text.includes('\r\n')) return false;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (text.charCodeAt(i - 1) !== 13) return false;
    lf++;
  }
  return lf > 0;
}

function occurrences(text: string, needle: string, stopAfter: number): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1 && n < stopAfter; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

function notFound(text: string, old: string, path: string): string {
  const near = closestLines(text, old);
  if (!near) return EDIT_NOT_FOUND(path);
  return `${EDIT_NOT_FOUND(path)}\n${EDIT_CLOSEST(near.from, near.to)}\n${near.numbered}`;
}

/** Applies `edits` in order to `original`; all of them, or none with the first failure. */
export function applyEdits(original: string, edits: readonly Edit[], path: string): Applied {
  const refused = checkEdits(edits);
  if (refused) return { ok: false, error: refused };
  const crlf = isCrlf(original);
  const lf = (s: string) => (crlf ? s.replaceAll('\r\n', '\n') : s);
  let text = lf(original);
  let replacements = 0;
  let head = Number.POSITIVE_INFINITY;
  let tail = Number.POSITIVE_INFINITY;
  for (const [i, e] of edits.entries()) {
    const old = lf(e.old_string);
    const replacement = lf(e.new_string);
    if (old === replacement) return { ok: false, error: withWhich(EDIT_IDENTICAL, i, edits.length) };
    const count = occurrences(text, old, e.replace_all ? Number.POSITIVE_INFINITY : 2);
    if (count === 0) return { ok: false, error: withWhich(notFound(text, old, path), i, edits.length) };
    if (count > 1 && !e.replace_all) {
      return { ok: false, error: withWhich(EDIT_AMBIGUOUS(occurrences(text, old, Number.POSITIVE_INFINITY), path), i, edits.length) };
    }
    // What comes before the first match and after the last is kept by this edit, so by all.
    const first = text.indexOf(old);
    const last = e.replace_all ? text.lastIndexOf(old) : first;
    head = Math.min(head, first);
    tail = Math.min(tail, text.length - (last + old.length));
    if (e.replace_all) {
      // split/join: a '$' in new_string is text, not a replacement pattern.
      text = text.split(old).join(replacement);
    } else {
      text = text.slice(0, first) + replacement + text.slice(first + old.length);
    }
    replacements += count;
  }
  if (original.endsWith('\n') && text !== '' && !text.endsWith('\n')) {
    text += '\n';
    tail = 0;
  }
  if (crlf) return { ok: true, text: text.replaceAll('\n', '\r\n'), replacements, head: 0, tail: 0 };
  return { ok: true, text, replacements, head, tail };
}
