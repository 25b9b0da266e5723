// A picker's keys: ↑/↓ and PgUp/PgDn move, Enter picks, Esc cancels, typing (or pasting)
// filters, Backspace edits the filter. Keys of one chunk ("kites" typed fast) arrive before
// the next render: the filter and the selection live in refs updated per key, and a render
// is asked for after each.
import { useReducer, useRef } from 'react';
import type { PaneInput } from '../hooks/useChatKeys.js';
import { usePaneInput } from '../panes/paneKeys.js';
import { filterRows, replaceControls, type PickerRow } from './pickerRows.js';

export interface PickerState {
  filter: string;
  /** The rows the filter lets through. */
  shown: PickerRow[];
  /** Index into `shown`. */
  selected: number;
}

interface Refs {
  filter: { current: string };
  index: { current: number };
}

/** A key's effect on the filter and selection; true when the picker is to be redrawn. */
function pickerKey(
  event: PaneInput,
  { filter, index }: Refs,
  rows: PickerRow[],
  onPick: (id: string) => void,
  onCancel: () => void,
): boolean {
  const list = filterRows(rows, filter.current);
  const cur = Math.min(index.current, Math.max(0, list.length - 1));
  const last = Math.max(0, list.length - 1);
  if (event.kind === 'paste') {
    // A pasted filter: its text, on one line.
    const text = replaceControls(event.text.replace(/\s+/g, ' '), '');
    if (!text) return false;
    filter.current += text;
    index.current = 0;
    return true;
  }
  const k = event;
  if (k.name === 'escape') {
    onCancel();
    return false;
  }
  if (k.name === 'return' || k.name === 'enter') {
    const row = list[cur];
    if (row) onPick(row.id);
    return false;
  }
  if (k.name === 'up') index.current = Math.max(0, cur - 1);
  else if (k.name === 'down') index.current = Math.min(last, cur + 1);
  else if (k.name === 'pageup') index.current = Math.max(0, cur - 10);
  else if (k.name === 'pagedown') index.current = Math.min(last, cur + 10);
  else if (k.name === 'backspace' || k.name === 'delete') {
    filter.current = filter.current.slice(0, -1);
    index.current = 0;
  } else if (k.ctrl || k.meta) return false;
  else {
    // A printable key: one character ("space" is the space bar).
    const ch = k.name === 'space' ? ' ' : [...k.name].length === 1 ? k.name : '';
    const text = replaceControls(ch, '');
    if (!text) return false;
    filter.current += text;
    index.current = 0;
  }
  return true;
}

export function usePickerKeys(
  rows: PickerRow[],
  initialId: string | undefined,
  onPick: (id: string) => void,
  onCancel: () => void,
): PickerState {
  const filterRef = useRef('');
  const indexRef = useRef(
    Math.max(
      0,
      rows.findIndex((r) => r.id === initialId),
    ),
  );
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  usePaneInput((event) => {
    if (pickerKey(event, { filter: filterRef, index: indexRef }, rows, onPick, onCancel)) redraw();
  });
  const filter = filterRef.current;
  const shown = filterRows(rows, filter);
  return { filter, shown, selected: Math.min(indexRef.current, Math.max(0, shown.length - 1)) };
}
