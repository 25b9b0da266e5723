// Search over the entries of a view: case-insensitive, through everything an entry holds
// (a tool call's arguments and retained result included, not only what is on screen).
import { searchText, type ViewEntry } from './entries.js';

export function matchIndices(entries: readonly ViewEntry[], query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const out: number[] = [];
  for (let i = 0; i < entries.length; i++) if (searchText(entries[i]).includes(q)) out.push(i);
  return out;
}

/**
 * The next match from `from`. The list opens at its newest entry, so "next" walks back into
 * history (older) and "previous" forward (newer); both wrap. `inclusive` accepts `from`
 * itself (a fresh search starting on a matching entry stays there).
 */
export function nextMatch(matches: readonly number[], from: number, dir: 'older' | 'newer', inclusive = false): number | undefined {
  if (matches.length === 0) return undefined;
  if (dir === 'older') {
    for (let i = matches.length - 1; i >= 0; i--) if (matches[i] < from || (inclusive && matches[i] === from)) return matches[i];
    return matches[matches.length - 1];
  }
  for (const m of matches) if (m > from || (inclusive && m === from)) return m;
  return matches[0];
}
