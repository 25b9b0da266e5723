// A change as the ledger keeps it: line counts over the whole change, and unified hunks
// cut to a budget. Tool results bring their own hunks (a `diff` display); changes seen
// around a shell command are diffed here with jsdiff.
import { structuredPatch } from 'diff';

/** One diff kept in a ledger entry, at most. */
export const DIFF_ENTRY_CAP_BYTES = 16 * 1024;

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

export interface DiffText {
  added: number;
  removed: number;
  diff: string;
  cut: boolean;
}

/** Hunks as unified text (`@@ -a,b +c,d @@` then the lines), cut at `cap` bytes. */
export function hunksText(hunks: readonly Hunk[], cap = DIFF_ENTRY_CAP_BYTES): { diff: string; cut: boolean } {
  const parts: string[] = [];
  let bytes = 0;
  for (const h of hunks) {
    for (const line of [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines]) {
      const size = Buffer.byteLength(line) + 1;
      if (bytes + size > cap) return { diff: parts.join('\n'), cut: true };
      parts.push(line);
      bytes += size;
    }
  }
  return { diff: parts.join('\n'), cut: false };
}

export function countLines(hunks: readonly Hunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks)
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  return { added, removed };
}

const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** old → new as counts and a capped diff. Texts past `timeoutMs` of diffing count as one
 * replaced block. */
export function diffTexts(oldText: string, newText: string, timeoutMs = 1000): DiffText {
  const patch = structuredPatch('a', 'b', oldText, newText, '', '', { context: 3, timeout: timeoutMs });
  if (!patch) return { added: lineCount(newText), removed: lineCount(oldText), diff: '', cut: true };
  const { added, removed } = countLines(patch.hunks);
  const { diff, cut } = hunksText(patch.hunks);
  return { added, removed, diff, cut };
}
