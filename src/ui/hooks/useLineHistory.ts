// The chat line's history of sent messages (this process only): ↑/↓ browse it, keeping
// the line being written as a draft to come back to; sending records a line and empties
// the input.
import { useCallback, useMemo } from 'react';
import type { Line } from './useLineState.js';

/** Sent messages remembered for ↑/↓ (this process only). */
export const HISTORY_LIMIT = 500;

export interface LineHistory {
  historyPrev(): void;
  historyNext(): void;
  clear(): void;
  /** Records a sent line in history and empties the input. */
  commit(sent: string): void;
}

export function useLineHistory({ get, update }: Line): LineHistory {
  const historyPrev = useCallback(() => {
    const s = get();
    if (s.history.length === 0) return;
    const idx = s.historyIndex === null ? s.history.length - 1 : Math.max(0, s.historyIndex - 1);
    if (idx === s.historyIndex) return;
    const value = s.history[idx];
    update({ historyIndex: idx, draft: s.historyIndex === null ? s.text : s.draft, text: value, cursor: value.length });
  }, [get, update]);

  const historyNext = useCallback(() => {
    const s = get();
    if (s.historyIndex === null) return;
    const idx = s.historyIndex + 1;
    if (idx >= s.history.length) update({ historyIndex: null, text: s.draft, cursor: s.draft.length, draft: '' });
    else update({ historyIndex: idx, text: s.history[idx], cursor: s.history[idx].length });
  }, [get, update]);

  const clear = useCallback(() => {
    update({ text: '', cursor: 0, historyIndex: null, draft: '', selected: 0, argChoices: [] });
  }, [update]);

  const commit = useCallback(
    (sent: string) => {
      const s = get();
      const history = s.history[s.history.length - 1] === sent ? s.history : [...s.history, sent].slice(-HISTORY_LIMIT);
      update({ history, text: '', cursor: 0, historyIndex: null, draft: '', selected: 0, argChoices: [] });
    },
    [get, update],
  );
  return useMemo(() => ({ historyPrev, historyNext, clear, commit }), [historyPrev, historyNext, clear, commit]);
}
