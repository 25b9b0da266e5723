// A filterable list: ↑/↓ move, Enter picks, Esc cancels, typing (or pasting) filters
// (Backspace edits the filter). Used by the session picker (--resume, /resume) and the model picker
// (/model). It reads its keys through usePaneInput, so it works as a chat pane and as a
// screen of its own (before the chat starts).
import React, { useRef } from 'react';
import { Box, Text } from 'ink';
import { t } from '../../i18n/index.js';
import { displayWidth, truncate } from '../text/width.js';
import type { PickerRow } from './pickerRows.js';
import { usePickerKeys } from './usePickerKeys.js';

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

export function ListPicker({ title, rows, width, maxRows, onPick, onCancel, empty, initialId }: ListPickerProps) {
  const { filter, shown, selected } = usePickerKeys(rows, initialId, onPick, onCancel);
  const offset = useRef(0);

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
        visible.map((row, i) => <PickerLine key={row.id} row={row} selected={offset.current + i === selected} width={w} />)
      )}
      <Text dimColor wrap="truncate-end">
        {truncate(t('ui:picker.hints', { counted: countText(shown.length, rows.length, filter) }), w)}
      </Text>
    </Box>
  );
}

/** One row: the label cut before its suffix and current mark, which show whole. */
function PickerLine({ row, selected, width }: { row: PickerRow; selected: boolean; width: number }) {
  const tail = `${row.suffix ? `  ${row.suffix}` : ''}${row.current ? `  ${t('ui:picker.current')}` : ''}`;
  const line = `${truncate(`${selected ? '›' : ' '} ${row.label}`, Math.max(1, width - displayWidth(tail)))}${tail}`;
  return (
    <Text inverse={selected} dimColor={row.dim && !selected} wrap="truncate-end">
      {truncate(line, width)}
    </Text>
  );
}
