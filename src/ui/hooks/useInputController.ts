// State of the input line: its value, the history of sent messages, / suggestions. Kept in
// a ref so several key events arriving before a re-render all see the current state.
import { useCallback, useMemo, useReducer, useRef } from 'react';
import type { CommandRegistry, SlashCommand } from '../commands/registry.js';

/** At most this many suggestions show under the input. */
export const MAX_SUGGESTIONS = 6;
/** Sent messages remembered for ↑/↓ (this process only). */
export const HISTORY_LIMIT = 500;

interface State {
  value: string;
  history: string[];
  /** Position in history while browsing it with ↑/↓; null when editing a fresh line. */
  historyIndex: number | null;
  draft: string;
  /** Bumped when the value is set by us (history, completion) so the text input remounts
   * with its cursor at the end. */
  epoch: number;
  selected: number;
}

export interface InputController {
  value: string;
  /** The value as of now, even from a handler created before the latest render. */
  read(): string;
  /** The epoch as of now (see `epoch`). */
  readEpoch(): number;
  epoch: number;
  suggestions: SlashCommand[];
  selected: number;
  /** `remount` puts the text input's cursor back at the end (its own state went stale). */
  change(next: string, options?: { remount?: boolean }): void;
  historyPrev(): void;
  historyNext(): void;
  moveSuggestion(delta: number): void;
  complete(): boolean;
  clear(): void;
  /** Records a sent line in history and empties the input. */
  commit(sent: string): void;
}

/** Terminals send pasted line breaks as \r; keep one message with \n line breaks. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

export function suggestionsFor(registry: CommandRegistry, value: string): SlashCommand[] {
  if (!value.startsWith('/') || value.startsWith('//') || /\s/.test(value)) return [];
  return registry.complete(value.slice(1)).slice(0, MAX_SUGGESTIONS);
}

export function useInputController(registry: CommandRegistry): InputController {
  const state = useRef<State>({ value: '', history: [], historyIndex: null, draft: '', epoch: 0, selected: 0 });
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const update = useCallback((patch: Partial<State>) => {
    state.current = { ...state.current, ...patch };
    rerender();
  }, []);

  const change = useCallback(
    (next: string, options: { remount?: boolean } = {}) => {
      const value = normalizeNewlines(next);
      if (value === state.current.value && !options.remount) return;
      update({ value, historyIndex: null, selected: 0, ...(options.remount ? { epoch: state.current.epoch + 1 } : {}) });
    },
    [update],
  );

  const historyPrev = useCallback(() => {
    const s = state.current;
    if (s.history.length === 0) return;
    const idx = s.historyIndex === null ? s.history.length - 1 : Math.max(0, s.historyIndex - 1);
    if (idx === s.historyIndex) return;
    update({ historyIndex: idx, draft: s.historyIndex === null ? s.value : s.draft, value: s.history[idx], epoch: s.epoch + 1 });
  }, [update]);

  const historyNext = useCallback(() => {
    const s = state.current;
    if (s.historyIndex === null) return;
    const idx = s.historyIndex + 1;
    if (idx >= s.history.length) update({ historyIndex: null, value: s.draft, draft: '', epoch: s.epoch + 1 });
    else update({ historyIndex: idx, value: s.history[idx], epoch: s.epoch + 1 });
  }, [update]);

  const moveSuggestion = useCallback(
    (delta: number) => {
      const count = suggestionsFor(registry, state.current.value).length;
      if (count === 0) return;
      update({ selected: (((state.current.selected + delta) % count) + count) % count });
    },
    [registry, update],
  );

  const complete = useCallback(() => {
    const list = suggestionsFor(registry, state.current.value);
    const pick = list[Math.min(state.current.selected, list.length - 1)];
    if (!pick) return false;
    const takesArgs = pick.maxArgs === undefined || pick.maxArgs > 0;
    update({ value: `/${pick.name}${takesArgs ? ' ' : ''}`, selected: 0, historyIndex: null, epoch: state.current.epoch + 1 });
    return true;
  }, [registry, update]);

  const clear = useCallback(() => {
    update({ value: '', historyIndex: null, draft: '', selected: 0, epoch: state.current.epoch + 1 });
  }, [update]);

  const commit = useCallback(
    (sent: string) => {
      const s = state.current;
      const history = s.history[s.history.length - 1] === sent ? s.history : [...s.history, sent].slice(-HISTORY_LIMIT);
      update({ history, value: '', historyIndex: null, draft: '', selected: 0, epoch: s.epoch + 1 });
    },
    [update],
  );

  const read = useCallback(() => state.current.value, []);
  const readEpoch = useCallback(() => state.current.epoch, []);

  const s = state.current;
  // While browsing history, ↑/↓ keep browsing even past a recalled "/command".
  const browsing = s.historyIndex !== null;
  const suggestions = useMemo(() => (browsing ? [] : suggestionsFor(registry, s.value)), [registry, s.value, browsing]);
  const selected = Math.min(s.selected, Math.max(0, suggestions.length - 1));
  // A new object only when the line changes, so the memoized input line does not re-render
  // (and re-subscribe its key handler) on every streamed frame.
  return useMemo(
    () => ({ value: s.value, read, readEpoch, epoch: s.epoch, suggestions, selected, change, historyPrev, historyNext, moveSuggestion, complete, clear, commit }),
    [s.value, s.epoch, suggestions, selected, read, readEpoch, change, historyPrev, historyNext, moveSuggestion, complete, clear, commit],
  );
}
