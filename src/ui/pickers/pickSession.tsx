// `arbor --resume` with no id: a session picker on a screen of its own, before the chat
// (and its runtime) exists. Resolves to the chosen id, or undefined when cancelled.
import React, { useEffect, useState } from 'react';
import { render, useApp, useStdout } from 'ink';
import { t } from '../../i18n/index.js';
import type { SessionSummary } from '../../model/session.js';
import { ListPicker } from './ListPicker.js';
import { sessionRows } from './sessionRows.js';

function PickerScreen({ sessions, home, onDone }: { sessions: SessionSummary[]; home?: string; onDone(id: string | undefined): void }) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const [rows] = useState(() => sessionRows(sessions, undefined, home));
  const [finished, setFinished] = useState(false);
  // Exit after an empty frame, so the picker leaves no lines behind for the chat.
  useEffect(() => {
    if (finished) exit();
  }, [finished, exit]);
  const done = (id: string | undefined) => {
    onDone(id);
    setFinished(true);
  };
  if (finished) return null;
  return (
    <ListPicker
      title={t('ui:picker.sessionsTitle')}
      rows={rows}
      width={stdout.columns || 80}
      maxRows={Math.max(4, (stdout.rows || 24) - 2)}
      onPick={(id) => done(id)}
      onCancel={() => done(undefined)}
      empty={t('ui:picker.noMatch')}
    />
  );
}

export async function pickSession(sessions: SessionSummary[], home?: string): Promise<string | undefined> {
  let chosen: string | undefined;
  const app = render(<PickerScreen sessions={sessions} home={home} onDone={(id) => (chosen = id)} />, { exitOnCtrlC: true });
  await app.waitUntilExit();
  return chosen;
}
