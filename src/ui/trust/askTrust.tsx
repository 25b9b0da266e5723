// The trust prompt: a screen of its own before the chat (and its config, runtime and MCP
// servers) exists, listing what the folder's .arbor settings would do. Resolves to the
// user's choice; Esc or Ctrl+C quits.
import React, { useEffect, useState } from 'react';
import { Box, render, Text, useApp, useStdout } from 'ink';
import { t } from '../../i18n/index.js';
import { ListPicker } from '../pickers/ListPicker.js';
import { wrapText } from '../text/width.js';

export type TrustChoice = 'trust' | 'skip' | 'quit';

export interface TrustPromptProps {
  /** The folder, neutralised. */
  folder: string;
  /** What its settings would do, one inert line each (config/trustText.ts). */
  lines: string[];
  onDone(choice: TrustChoice): void;
}

export function TrustPrompt({ folder, lines, onDone }: TrustPromptProps) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const [finished, setFinished] = useState(false);
  // Exit after an empty frame, so the prompt leaves no lines behind for the chat.
  useEffect(() => {
    if (finished) exit();
  }, [finished, exit]);
  if (finished) return null;
  const done = (choice: TrustChoice) => {
    onDone(choice);
    setFinished(true);
  };
  const width = Math.max(20, stdout.columns || 80);
  const rows = Math.max(12, stdout.rows || 24);
  // Title, intro, the three choices with the picker's title, filter line and hint.
  const room = Math.max(3, rows - 9);
  const wrapped = lines.flatMap((l) => wrapText(`• ${l}`, width));
  const shown = wrapped.length > room ? [...wrapped.slice(0, room - 1), `… (+${wrapped.length - room + 1})`] : wrapped;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold color="yellow">
        {wrapText(t('trust:prompt.title', { folder }), width).join('\n')}
      </Text>
      <Text>{wrapText(t('trust:prompt.intro'), width).join('\n')}</Text>
      <Text>{shown.join('\n')}</Text>
      <ListPicker
        title={t('trust:prompt.question')}
        rows={[
          { id: 'trust', label: t('trust:prompt.trust') },
          { id: 'skip', label: t('trust:prompt.skip') },
          { id: 'quit', label: t('trust:prompt.quit') },
        ]}
        width={width}
        maxRows={6}
        initialId="skip"
        onPick={(id) => done(id as TrustChoice)}
        onCancel={() => done('quit')}
        empty={t('ui:picker.noMatch')}
      />
    </Box>
  );
}

export async function askTrust(folder: string, lines: string[]): Promise<TrustChoice> {
  let chosen: TrustChoice = 'quit';
  const app = render(<TrustPrompt folder={folder} lines={lines} onDone={(c) => (chosen = c)} />, { exitOnCtrlC: true });
  await app.waitUntilExit();
  return chosen;
}
