// The pane's one-line steer prompt: Enter sends the message to the selected run (the pane
// handles Esc). Its keys come from the pane (the keypress layer, like every key), so it is
// a small view over the same line editor as the chat line, not ink-text-input: a
// component with its own key listener would miss keys typed before its first frame.
import React, { memo, useCallback, useReducer, useRef, type MutableRefObject } from 'react';
import { Box, Text } from 'ink';
import { t } from '../../i18n/index.js';
import type { KeyCommand } from '../../config/keySpec.js';
import type { PaneInput } from '../hooks/useChatKeys.js';
import * as ed from '../input/lineEditor.js';
import { useKeyTable } from '../keys/keyTable.js';
import { keyText } from '../keys/tokenizer.js';
import { truncate } from '../text/width.js';

export interface SteerPromptProps {
  label: string;
  width: number;
  onSubmit(message: string): void;
  /** The pane hands this prompt its keys through here while it shows. */
  inputRef: MutableRefObject<((event: PaneInput) => void) | null>;
}

const MOVES: [KeyCommand, (s: ed.EditorState) => ed.EditorState][] = [
  ['edit.line_start', ed.lineStart],
  ['edit.line_end', ed.lineEnd],
  ['edit.left', ed.left],
  ['edit.right', ed.right],
  ['edit.word_left', ed.wordLeft],
  ['edit.word_right', ed.wordRight],
  ['edit.backspace', ed.backspace],
  ['edit.delete', ed.deleteForward],
  ['edit.kill_start', (s) => ed.killToStart(s).state],
  ['edit.kill_end', (s) => ed.killToEnd(s).state],
  ['edit.kill_word', (s) => ed.killWordBack(s).state],
];

export const SteerPrompt = memo(function SteerPrompt({ label, width, onSubmit, inputRef }: SteerPromptProps) {
  const keys = useKeyTable();
  const line = useRef<ed.EditorState>(ed.EMPTY);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const set = (next: ed.EditorState) => {
    if (next === line.current) return;
    line.current = next;
    rerender();
  };
  const onInput = useCallback(
    (event: PaneInput) => {
      // One line: line breaks in a paste become spaces.
      if (event.kind === 'paste') return set(ed.insert(line.current, event.text.replace(/[\r\n]+/g, ' ')));
      if (keys.is('chat.send', event)) return onSubmit(line.current.text);
      for (const [command, op] of MOVES) if (keys.is(command, event)) return set(op(line.current));
      const text = keyText(event);
      if (text) set(ed.insert(line.current, text));
    },
    [keys, onSubmit],
  );
  inputRef.current = onInput;

  const prefix = truncate(t('agents:steer.prompt', { label }), Math.max(4, Math.floor(width / 2)));
  const { text, cursor } = line.current;
  const end = cursor < text.length ? ed.nextBoundary(text, cursor) : cursor;
  return (
    <Box flexDirection="row" width={width} height={1} overflow="hidden">
      <Box flexShrink={0} marginRight={1}>
        <Text color="cyan" bold>
          {prefix}
        </Text>
      </Box>
      <Box flexGrow={1} overflow="hidden">
        {text === '' ? (
          <Text dimColor>
            <Text inverse>{t('agents:steer.placeholder')[0]}</Text>
            {t('agents:steer.placeholder').slice(1)}
          </Text>
        ) : (
          <Text wrap="truncate-start">
            {text.slice(0, cursor)}
            <Text inverse>{cursor < text.length ? text.slice(cursor, end) : ' '}</Text>
            {text.slice(end)}
          </Text>
        )}
      </Box>
    </Box>
  );
});
