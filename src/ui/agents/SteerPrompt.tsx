// The pane's one-line steer prompt: Enter sends the message to the selected run, Esc
// cancels. Ctrl/Alt chords are not text (ink-text-input would type their letter).
import React, { useCallback, useRef, useState } from 'react';
import { Box, Text, useInput, type Key } from 'ink';
import TextInput from 'ink-text-input';
import { t } from '../../i18n/index.js';
import { truncate } from '../text/width.js';

export interface SteerPromptProps {
  label: string;
  width: number;
  onSubmit(message: string): void;
  onCancel(): void;
}

export function SteerPrompt({ label, width, onSubmit, onCancel }: SteerPromptProps) {
  const [value, setValue] = useState('');
  const chord = useRef(false);
  const latest = useRef({ onCancel });
  latest.current = { onCancel };
  const onKey = useCallback((_input: string, key: Key) => {
    chord.current = key.ctrl || (key.meta && !key.escape);
    if (key.escape) latest.current.onCancel();
  }, []);
  useInput(onKey);
  const prefix = truncate(t('agents:steer.prompt', { label }), Math.max(4, Math.floor(width / 2)));
  return (
    <Box flexDirection="row" width={width} height={1} overflow="hidden">
      <Text color="cyan" bold>{`${prefix} `}</Text>
      <Box flexGrow={1} overflow="hidden">
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
}
