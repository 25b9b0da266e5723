// The chat line's state (text and cursor, kill buffer, history position, / menu), kept in
// a ref store so several keys arriving before a re-render all apply to the current state,
// one after the other. Re-rendered through useSyncExternalStore, not a state hook: React
// renders such an update synchronously (in the microtask after the key handler), where a
// state update waits for the scheduler's next slot, behind whatever stream chunks the same
// turn of the event loop still has to process. A typed key then shows in the next frame
// even while a tree of children streams.
import { useCallback, useMemo } from 'react';
import type { EditorState } from '../input/lineEditor.js';
import { useRefStore } from './useRefStore.js';

export interface LineState extends EditorState {
  history: string[];
  /** Position in history while browsing it with ↑/↓; null when editing a fresh line. */
  historyIndex: number | null;
  draft: string;
  selected: number;
  /** The last text cut with Ctrl+U/K/W, for Ctrl+Y (consecutive kills joined). */
  killed: string;
  /** Whether the last change was a kill, so the next kill joins the buffer. */
  afterKill: boolean;
  /** Argument completions offered by Tab (cycled by ↑/↓ or more Tabs). */
  argChoices: string[];
}

/** The line's state and its two ways of changing; every member is stable. */
export interface Line {
  /** The state as of now, even from a handler created before the latest render. */
  get(): LineState;
  /** Any change; it ends a run of kills unless it says otherwise. */
  update(patch: Partial<LineState>): void;
  /** An edit: leaves history browsing and resets the / menu when the text changed. */
  apply(next: EditorState, extra?: Partial<LineState>): void;
}

const INITIAL: LineState = {
  text: '',
  cursor: 0,
  history: [],
  historyIndex: null,
  draft: '',
  selected: 0,
  killed: '',
  afterKill: false,
  argChoices: [],
};

export function useLineState(): Line {
  const { get, set } = useRefStore<LineState>(INITIAL);
  const update = useCallback(
    (patch: Partial<LineState>) => {
      // Any change but a kill ends a run of kills.
      set({ ...get(), afterKill: false, ...patch });
    },
    [get, set],
  );
  const apply = useCallback(
    (next: EditorState, extra: Partial<LineState> = {}) => {
      const s = get();
      if (next.text === s.text && next.cursor === s.cursor && Object.keys(extra).length === 0) return;
      const changed = next.text !== s.text;
      update({ text: next.text, cursor: next.cursor, ...(changed ? { historyIndex: null, selected: 0, argChoices: [] } : {}), ...extra });
    },
    [get, update],
  );
  return useMemo(() => ({ get, update, apply }), [get, update, apply]);
}
