// The input line: ink-text-input for editing, Enter to send, / suggestions underneath.
// A paste arrives from Ink as one chunk, line breaks included, so it stays one value and is
// sent as one message when Enter is pressed on its own.
import React, { memo, useCallback, useRef } from 'react';
import { Box, Text, useInput, type Key } from 'ink';
import TextInput from 'ink-text-input';
import { t } from '../../i18n/index.js';
import type { InputController } from '../hooks/useInputController.js';
import { INPUT_PROMPT } from '../theme.js';
import { displayWidth, truncate, wrapText } from '../text/width.js';

export interface InputLineProps {
  controller: InputController;
  /** Enter: send whatever the line holds now (read it from the controller). */
  onSubmit(): void;
  focus: boolean;
  width: number;
  /** Most rows a multi-line value may take before its top is cut. */
  maxLines: number;
  /** Only re-renders on a language switch through this (the component is memoized). */
  language: string;
  /** Asked at each key: true while the keys belong elsewhere (a pending approval), even
   * before this component has re-rendered without focus. */
  blocked?: () => boolean;
}

/** Rows the value takes when wrapped after the prompt. */
function valueRows(value: string, width: number): number {
  const inner = Math.max(1, width - displayWidth(INPUT_PROMPT) - 1);
  return Math.max(1, wrapText(value, inner).length);
}

/** Rows the input area will occupy, for the live-region budget. */
export function inputLineHeight(controller: InputController, width: number, maxLines: number): number {
  const rows = valueRows(controller.value, width);
  const shown = Math.min(rows, Math.max(1, maxLines));
  return shown + (rows > shown ? 1 : 0) + (controller.value.includes('\n') ? 1 : 0) + controller.suggestions.length;
}

interface GateState {
  /** The key is a Ctrl/Alt chord: its letter is not text. */
  chord: boolean;
  /** A chunk like "hello\r": text typed faster than the terminal sent it, then Enter. */
  typedEnter: boolean;
  /** The text this key inserts, when it inserts any. */
  text: string;
  /** Backspace / Delete. */
  erase: boolean;
}

function insertedText(input: string, key: Key): string {
  if (key.ctrl || key.meta || key.return || key.backspace || key.delete || key.tab) return '';
  if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown) return '';
  return input;
}

/** One chunk that is a single line ending in Enter: a carriage return, or a newline when
 * the line was typed while the terminal was still line-buffered (before arbor started) and
 * the terminal turned the Enter into \n. A paste with line breaks inside stays text; only a
 * lone trailing Enter submits. */
export function isTypedLineWithEnter(input: string): boolean {
  return input.length > 1 && /[\r\n]$/.test(input) && !/[\r\n]/.test(input.slice(0, -1));
}

/**
 * ink-text-input inserts the letter of any Ctrl/Alt chord (Ctrl+D would type "d"), treats
 * a chunk ending in Enter as text, and may handle a key with a stale handler. This
 * listener sits before the text input, sees each key first and records what it was, so the
 * line can take the change that follows correctly. Its handler is stable, so Ink keeps it
 * ahead of the text input's, which re-subscribes on every render.
 */
function KeyGate({ gate, focus }: { gate: React.MutableRefObject<GateState>; focus: boolean }) {
  const onKey = useCallback(
    (input: string, key: Key) => {
      gate.current = {
        chord: key.ctrl || (key.meta && !key.escape),
        typedEnter: isTypedLineWithEnter(input),
        text: insertedText(input, key),
        erase: key.backspace || key.delete,
      };
    },
    [gate],
  );
  useInput(onKey, { isActive: focus });
  return null;
}

// Memoized: the App re-renders on every streamed frame, and each render of ink-text-input
// re-subscribes its key handler, which is wasted work and widens the stale-handler window.
export const InputLine = memo(function InputLine({ controller, onSubmit, focus, width, maxLines, blocked }: InputLineProps) {
  const gate = useRef<GateState>({ chord: false, typedEnter: false, text: '', erase: false });
  const { value, suggestions, selected } = controller;
  const epochAtRender = controller.epoch;
  const onChange = (next: string) => {
    const { chord, typedEnter, text, erase } = gate.current;
    if (chord || blocked?.()) return;
    let line = next;
    let remount = false;
    if (controller.readEpoch() !== epochAtRender || controller.read() !== value) {
      // A key handled by a text-input handler from before the line last changed: React
      // re-subscribes handlers only after the frame, so keys in quick succession (or right
      // after ↑ / Tab / Enter replaced the input) reach a handler that computed `next` from
      // an old line. Apply the key to the current line instead, at its end, where fast
      // typing happens, and remount the text input so its cursor (stale too) is there.
      const current = controller.read();
      if (text) line = current + text;
      else if (erase) line = current.slice(0, -1);
      else return;
      remount = true;
    }
    if (typedEnter) {
      controller.change(line.replace(/[\r\n]$/, ''), { remount });
      onSubmit();
      return;
    }
    controller.change(line, { remount });
  };
  const rows = valueRows(value, width);
  const shown = Math.min(rows, Math.max(1, maxLines));
  const lineCount = value.split('\n').length;
  const nameWidth = Math.max(0, ...suggestions.map((c) => c.name.length)) + 3;
  return (
    <Box flexDirection="column" width={width}>
      {rows > shown && <Text dimColor>{t('ui:input.moreAbove', { count: rows - shown })}</Text>}
      <Box flexDirection="row">
        <Text color="cyan" bold>
          {INPUT_PROMPT}
        </Text>
        {/* A tall paste shows its last rows, where the cursor is: the text is shifted up
            inside a clipped box. */}
        <Box flexDirection="column" height={shown} overflowY="hidden" flexGrow={1}>
          <Box flexDirection="column" marginTop={shown - rows} flexShrink={0}>
            <KeyGate gate={gate} focus={focus} />
            <TextInput
              key={controller.epoch}
              value={value}
              onChange={onChange}
              onSubmit={onSubmit}
              focus={focus}
              placeholder={t('ui:input.placeholder')}
            />
          </Box>
        </Box>
      </Box>
      {lineCount > 1 && <Text dimColor>{`  ${t('ui:input.multiline', { count: lineCount })}`}</Text>}
      {suggestions.map((c, i) => (
        <Text key={c.name} color={i === selected ? 'cyan' : undefined} dimColor={i !== selected} wrap="truncate-end">
          {truncate(`  ${`/${c.name}`.padEnd(nameWidth)}${t(c.summary)}`, width)}
        </Text>
      ))}
    </Box>
  );
});
