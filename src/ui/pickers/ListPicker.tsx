// A filterable list: ↑/↓ move, Enter picks, Esc cancels, typing (or pasting) filters
// (Backspace edits the filter). Used by the session picker (--resume, /resume) and the model picker
// (/model). It reads its keys through usePaneInput, so it works as a chat pane and as a
// screen of its own (before the chat starts).
import React, { useReducer, useRef } from 'react';
import { Box, Text } from 'ink';
import { t } from '../../i18n/index.js';
import { usePaneInput } from '../panes/paneKeys.js';
import { displayWidth, truncate } from '../text/width.js';

/** `text` with every C0/C1 control character (ESC included) replaced. */
export function replaceControls(text: string, replacement: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    out += c < 0x20 || (c >= 0x7f && c <= 0x9f) ? replacement : ch;
  }
  return out;
}

export interface PickerRow {
  id: string;
  /** The row as shown (one line; cut to the width). */
  label: string;
  /** What the filter matches against (defaults to the label). */
  search?: string;
  /** Marked (e.g. the current session or model). */
  current?: boolean;
  dim?: boolean;
  /** Shown whole after the label (a session's cost): the label is cut before it instead. */
  suffix?: string;
}

export interface ListPickerProps {
  title: string;
  rows: PickerRow[];
  width: number;
  /** Rows the picker may use, title and hints included. */
  maxRows: number;
  onPick(id: string): void;
  onCancel(): void;
  /** Shown when no row matches the filter (or there are none). */
  empty: string;
  /** The row selected at first. */
  initialId?: string;
}

/** "2 in all", or with a filter "1 of 2 matches": "1 of 2" alone read as a position. */
export function countText(shown: number, total: number, filter: string): string {
  return filter.trim() ? t('ui:picker.countMatching', { count: shown, total }) : t('ui:picker.countAll', { count: total });
}

export function filterRows(rows: PickerRow[], filter: string): PickerRow[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return rows;
  return rows.filter((r) => {
    const hay = (r.search ?? r.label).toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

export function ListPicker({ title, rows, width, maxRows, onPick, onCancel, empty, initialId }: ListPickerProps) {
  // Keys of one chunk ("kites" typed fast) arrive before the next render: the filter and
  // the selection live in refs updated per key, and a render is asked for after each.
  const filterRef = useRef('');
  const indexRef = useRef(
    Math.max(
      0,
      rows.findIndex((r) => r.id === initialId),
    ),
  );
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const offset = useRef(0);
  const filter = filterRef.current;
  const shown = filterRows(rows, filter);
  const selected = Math.min(indexRef.current, Math.max(0, shown.length - 1));

  usePaneInput((event) => {
    const list = filterRows(rows, filterRef.current);
    const cur = Math.min(indexRef.current, Math.max(0, list.length - 1));
    const last = Math.max(0, list.length - 1);
    if (event.kind === 'paste') {
      // A pasted filter: its text, on one line.
      const text = replaceControls(event.text.replace(/\s+/g, ' '), '');
      if (!text) return;
      filterRef.current += text;
      indexRef.current = 0;
      redraw();
      return;
    }
    const k = event;
    if (k.name === 'escape') return onCancel();
    if (k.name === 'return' || k.name === 'enter') {
      const row = list[cur];
      if (row) onPick(row.id);
      return;
    }
    if (k.name === 'up') indexRef.current = Math.max(0, cur - 1);
    else if (k.name === 'down') indexRef.current = Math.min(last, cur + 1);
    else if (k.name === 'pageup') indexRef.current = Math.max(0, cur - 10);
    else if (k.name === 'pagedown') indexRef.current = Math.min(last, cur + 10);
    else if (k.name === 'backspace' || k.name === 'delete') {
      filterRef.current = filterRef.current.slice(0, -1);
      indexRef.current = 0;
    } else if (k.ctrl || k.meta) return;
    else {
      // A printable key: one character ("space" is the space bar).
      const ch = k.name === 'space' ? ' ' : [...k.name].length === 1 ? k.name : '';
      const text = replaceControls(ch, '');
      if (!text) return;
      filterRef.current += text;
      indexRef.current = 0;
    }
    redraw();
  });

  const w = Math.max(10, width);
  // Title, filter line and hints take three rows; the list gets the rest.
  const listRows = Math.max(1, maxRows - 3);
  let start = Math.min(offset.current, Math.max(0, shown.length - listRows));
  if (selected < start) start = selected;
  if (selected >= start + listRows) start = selected - listRows + 1;
  offset.current = Math.max(0, start);
  const visible = shown.slice(offset.current, offset.current + listRows);

  return (
    <Box flexDirection="column" width={w}>
      <Text bold wrap="truncate-end">
        {truncate(title, w)}
      </Text>
      <Text wrap="truncate-end">
        <Text dimColor>{t('ui:picker.filter')} </Text>
        <Text>{filter}</Text>
        <Text inverse> </Text>
      </Text>
      {visible.length === 0 ? (
        <Text dimColor wrap="truncate-end">
          {truncate(empty, w)}
        </Text>
      ) : (
        visible.map((row, i) => {
          const isSel = offset.current + i === selected;
          const tail = `${row.suffix ? `  ${row.suffix}` : ''}${row.current ? `  ${t('ui:picker.current')}` : ''}`;
          const line = `${truncate(`${isSel ? '›' : ' '} ${row.label}`, Math.max(1, w - displayWidth(tail)))}${tail}`;
          return (
            <Text key={row.id} inverse={isSel} dimColor={row.dim && !isSel} wrap="truncate-end">
              {truncate(line, w)}
            </Text>
          );
        })
      )}
      <Text dimColor wrap="truncate-end">
        {truncate(t('ui:picker.hints', { counted: countText(shown.length, rows.length, filter) }), w)}
      </Text>
    </Box>
  );
}
