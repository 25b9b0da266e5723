// What keys do to the chat line's text and cursor: inserts, moves, deletes, the kill
// buffer (Ctrl+U/K/W joined while consecutive, Ctrl+Y), ↑/↓ inside a multi-line value,
// and replacing the whole value.
import { useCallback, useMemo } from 'react';
import * as ed from '../input/lineEditor.js';
import type { Line, LineState } from './useLineState.js';

/** What a key can do to the line. */
export type EditOp =
  | 'left'
  | 'right'
  | 'wordLeft'
  | 'wordRight'
  | 'lineStart'
  | 'lineEnd'
  | 'backspace'
  | 'delete'
  | 'killStart'
  | 'killEnd'
  | 'killWord'
  | 'yank';

export interface LineEdits {
  /** Inserts at the cursor (a paste is appended in one go). */
  insert(text: string): void;
  edit(op: EditOp): void;
  /** ↑ inside a multi-line value; false on its first line. */
  lineUp(): boolean;
  lineDown(): boolean;
  /** Replaces the whole value, cursor at the end. */
  set(value: string): void;
}

/** The line after `op`, and what else changes with it; undefined when a kill cuts nothing. */
function edited(s: LineState, op: EditOp): [ed.EditorState, Partial<LineState>?] | undefined {
  switch (op) {
    case 'left':
      return [ed.left(s)];
    case 'right':
      return [ed.right(s)];
    case 'wordLeft':
      return [ed.wordLeft(s)];
    case 'wordRight':
      return [ed.wordRight(s)];
    case 'lineStart':
      return [ed.lineStart(s)];
    case 'lineEnd':
      return [ed.lineEnd(s)];
    case 'backspace':
      return [ed.backspace(s)];
    case 'delete':
      return [ed.deleteForward(s)];
    case 'yank':
      return [ed.insert(s, s.killed)];
    case 'killStart':
    case 'killEnd':
    case 'killWord': {
      const cut = op === 'killStart' ? ed.killToStart(s) : op === 'killEnd' ? ed.killToEnd(s) : ed.killWordBack(s);
      if (!cut.killed) return undefined;
      const killed = ed.joinKill(s.killed, cut.killed, op !== 'killEnd', s.afterKill);
      return [cut.state, { killed, afterKill: true }];
    }
  }
}

export function useLineEdits({ get, apply }: Line): LineEdits {
  const insert = useCallback((text: string) => apply(ed.insert(get(), text)), [get, apply]);
  const edit = useCallback(
    (op: EditOp) => {
      const next = edited(get(), op);
      if (next) apply(...next);
    },
    [get, apply],
  );
  const lineUp = useCallback(() => {
    const next = ed.lineUp(get());
    if (!next) return false;
    apply(next);
    return true;
  }, [get, apply]);
  const lineDown = useCallback(() => {
    const next = ed.lineDown(get());
    if (!next) return false;
    apply(next);
    return true;
  }, [get, apply]);
  const set = useCallback(
    (value: string) => {
      const text = ed.cleanInsert(value);
      apply({ text, cursor: text.length });
    },
    [apply],
  );
  return useMemo(() => ({ insert, edit, lineUp, lineDown, set }), [insert, edit, lineUp, lineDown, set]);
}
