// The pane's one-line steer prompt: Enter sends the message to the selected run (the pane
// handles Esc). Ctrl/Alt chords are not text (ink-text-input would type their letter).
import React, { memo, useCallback, useRef, useState } from 'react';
import { Box, Text, useInput, type Key } from 'ink';
import TextInput from 'ink-text-input';
import { t } from '../../i18n/index.js';
import { truncate } from '../text/width.js';

export interface SteerPromptProps {
  label: string;
  width: number;
  onSubmit(message: string): void;
}

/** Sees each key before the text input (a sibling mounted ahead of it subscribes first;
 * its handler is stable, so it stays ahead) and marks Ctrl/Alt chords. */
function ChordGate({ chord }: { chord: React.MutableRefObject<boolean> }) {
  const onKey = useCallback(
    (_input: string, key: Key) => {
      chord.current = key.ctrl || (key.meta && !key.escape);
    },
    [chord],
  );
  useInput(onKey);
  return null;
}

// Memoized: the pane redraws ~10 times a second, and each render of ink-text-input
// resubscribes its key handler; a key landing in that gap would be lost.
export const SteerPrompt = memo(function SteerPrompt({ label, width, onSubmit }: SteerPromptProps) {
  const [value, setValue] = useState('');
  const chord = useRef(false);
  const prefix = truncate(t('agents:steer.prompt', { label }), Math.max(4, Math.floor(width / 2)));
  return (
    <Box flexDirection="row" width={width} height={1} overflow="hidden">
      <Box flexShrink={0} marginRight={1}>
        <Text color="cyan" bold>
          {prefix}
        </Text>
      </Box>
      <Box flexGrow={1} overflow="hidden">
        <ChordGate chord={chord} />
        <TextInput
          value={value}
          onChange={(next) => {
            if (!chord.current) setValue(next.replace(/[\r\n]+/g, ' '));
          }}
          onSubmit={() => onSubmit(value)}
          placeholder={t('agents:steer.placeholder')}
        />
      </Box>
    </Box>
  );
});
