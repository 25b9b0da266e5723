// The chat line: a view of the line editor's state (useInputController) with the cursor
// drawn where the editor holds it, and the / menu underneath. It reads no keys itself;
// the keypress layer routes them (hooks/useChatKeys.ts, input/editorKeys.ts). It replaces
// ink-text-input here, whose cursor lived in its own state, went stale when several keys
// arrived between renders, and needed remounts to stay in step with the value.
import React, { memo } from 'react';
import { Box, Text } from 'ink';
import { t } from '../../i18n/index.js';
import type { InputController } from '../hooks/useInputController.js';
import { cellWidth, layoutInput, nextBoundary, rowOf, rowText, type InputLayout } from '../input/lineEditor.js';
import { INPUT_PROMPT } from '../theme.js';
import { displayWidth, truncate } from '../text/width.js';

export interface InputLineProps {
  controller: InputController;
  width: number;
  /** Most rows a multi-line value may take before the rest scrolls. */
  maxLines: number;
  /** Only re-renders on a language switch through this (the component is memoized). */
  language: string;
  /** False while the keys belong elsewhere (an approval): the cursor is not drawn. */
  focus: boolean;
}

// One-slot cache: the App asks for the height on every streamed frame, the view then asks
// again; a pasted megabyte is laid out once per change, not per frame.
let cached: InputLayout | undefined;
function layoutFor(value: string, width: number): InputLayout {
  const inner = Math.max(2, width - displayWidth(INPUT_PROMPT) - 1);
  if (!cached || cached.text !== value || cached.width !== inner) cached = layoutInput(value, inner);
  return cached;
}

/** Which rows show: the window keeps the cursor in view (at the end of a tall paste, its
 * last rows). */
function windowOf(layout: InputLayout, cursor: number, maxLines: number) {
  const rows = layout.starts.length;
  const shown = Math.min(rows, Math.max(1, maxLines));
  const cursorRow = rowOf(layout, cursor);
  const first = Math.max(0, Math.min(cursorRow - shown + 1, rows - shown));
  return { rows, shown, cursorRow, first, below: rows - first - shown };
}

/** Lines the message sends: Enter sends the text trimmed, so a paste ending in a line
 * break ("a\nb\nc\n") is 3 lines, not 4. */
function countLines(value: string): number {
  const text = value.trim();
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Rows the input area will occupy, for the live-region budget. */
export function inputLineHeight(controller: InputController, width: number, maxLines: number): number {
  const w = windowOf(layoutFor(controller.value, width), controller.cursor, maxLines);
  const s = controller.suggestions;
  return (
    w.shown +
    (w.first > 0 ? 1 : 0) +
    (w.below > 0 ? 1 : 0) +
    (controller.value.includes('\n') ? 1 : 0) +
    s.items.length +
    (s.total > s.items.length ? 1 : 0)
  );
}

/** One row of the value, with the cursor cell inverted when it is on this row. */
function Row({ text, cursorAt }: { text: string; cursorAt: number | undefined }) {
  const shown = (s: string) => s.replace(/\t/g, ' ');
  if (cursorAt === undefined) return <Text>{shown(text) || ' '}</Text>;
  const end = cursorAt < text.length ? nextBoundary(text, cursorAt) : cursorAt;
  const under = cursorAt < text.length ? text.slice(cursorAt, end) : ' ';
  return (
    <Text>
      {shown(text.slice(0, cursorAt))}
      <Text inverse>{shown(under)}</Text>
      {shown(text.slice(end))}
    </Text>
  );
}

// Memoized: the App re-renders on every streamed frame; the line only when it changes.
export const InputLine = memo(function InputLine({ controller, width, maxLines, focus }: InputLineProps) {
  const { value, cursor, suggestions } = controller;
  const layout = layoutFor(value, width);
  const { shown, cursorRow, first, below: hiddenBelow } = windowOf(layout, cursor, maxLines);
  const lineCount = countLines(value);
  const nameWidth = Math.max(0, ...suggestions.items.map((c) => c.name.length)) + 2;
  const lines: React.ReactNode[] = [];
  if (value === '') {
    const placeholder = t('ui:input.placeholder');
    lines.push(
      <Text key="p" dimColor>
        {focus ? <Text inverse>{placeholder[0]}</Text> : placeholder[0]}
        {placeholder.slice(1)}
      </Text>,
    );
  } else {
    for (let r = first; r < first + shown; r++) {
      const { from, to } = rowText(layout, r);
      const text = value.slice(from, to);
      let at: number | undefined;
      if (focus && r === cursorRow) {
        at = cursor - from;
        // A cursor at the end of a full row would spill past the width: show it on that
        // row's last cell instead of wrapping.
        let w = 0;
        for (const ch of text) w += cellWidth(ch);
        if (at >= text.length && w >= layout.width && text.length > 0) at = text.length - 1;
      }
      lines.push(<Row key={r} text={text} cursorAt={at} />);
    }
  }
  const hiddenAbove = first;
  return (
    <Box flexDirection="column" width={width}>
      {hiddenAbove > 0 && <Text dimColor>{t('ui:input.moreAbove', { count: hiddenAbove })}</Text>}
      <Box flexDirection="row">
        <Text color="cyan" bold>
          {INPUT_PROMPT}
        </Text>
        <Box flexDirection="column" flexGrow={1}>
          {lines}
        </Box>
      </Box>
      {hiddenBelow > 0 && <Text dimColor>{t('ui:input.moreBelow', { count: hiddenBelow })}</Text>}
      {lineCount > 1 && <Text dimColor>{`  ${t('ui:input.multiline', { count: lineCount })}`}</Text>}
      {suggestions.items.map((c, i) => (
        <Text
          key={c.name}
          color={i === suggestions.selected ? 'cyan' : undefined}
          dimColor={i !== suggestions.selected}
          wrap="truncate-end"
        >
          {truncate(`  ${c.name.padEnd(nameWidth)}${c.summary ? t(c.summary) : ''}`, width)}
        </Text>
      ))}
      {suggestions.total > suggestions.items.length && (
        <Text dimColor wrap="truncate-end">
          {truncate(
            `  ${t('ui:input.moreChoices', {
              above: suggestions.offset,
              below: suggestions.total - suggestions.offset - suggestions.items.length,
            })}`,
            width,
          )}
        </Text>
      )}
    </Box>
  );
});
