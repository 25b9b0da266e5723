// Quitting with background tasks still running asks first, as an editor does with unsaved
// files: quit anyway (their records say lost), wait for them and then quit, cancel them and
// quit, or stay. Pressing a quit key again (Ctrl+D, Ctrl+C) quits anyway.
import React, { useCallback, useEffect, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { t } from '../../i18n/index.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { runningBackgroundTasks } from '../../runtime/store.js';
import type { Pane } from '../panes/types.js';
import { usePaneInput } from '../panes/paneKeys.js';
import type { KeyTable } from '../keys/keyTable.js';
import { QUIT_PANE_ID } from './paneId.js';

export { QUIT_PANE_ID };

export interface QuitQuestionProps {
  runtime: RuntimeApi;
  keys: KeyTable;
  width: number;
  /** Leaves the chat now. */
  quit(): void;
  /** Back to the chat. */
  stay(): void;
}

export function QuitQuestion({ runtime, keys, width, quit, stay }: QuitQuestionProps) {
  const running = useStore(runtime.store, (s) => runningBackgroundTasks(s).length);
  const [waiting, setWaiting] = useState(false);
  const done = useRef(false);
  const quitRef = useRef(quit);
  quitRef.current = quit;
  const leave = useCallback(() => {
    if (done.current) return;
    done.current = true;
    quitRef.current();
  }, []);
  // Waiting, or the tasks ended while the question was up: nothing is left to lose.
  useEffect(() => {
    if (running === 0) leave();
  }, [running, leave]);

  usePaneInput((event) => {
    if (event.kind !== 'key') return;
    if (keys.is('chat.quit', event) || keys.is('chat.cancel', event)) return leave();
    if (event.name === 'escape') return stay();
    if (waiting || event.ctrl || event.meta) return;
    const answer = event.name.toLowerCase();
    if (answer === 'q') leave();
    else if (answer === 'w') setWaiting(true);
    else if (answer === 'c') {
      for (const run of runningBackgroundTasks(runtime.store.getState())) runtime.kill(run.id);
      leave();
    }
  });

  const quitKeys = keys.labels(['chat.quit', 'chat.cancel']);
  return (
    <Box flexDirection="column" width={Math.max(10, width)}>
      <Text color="yellow" wrap="wrap">
        {t(waiting ? 'ui:quit.waiting' : 'ui:quit.question', { count: running })}
      </Text>
      <Text dimColor wrap="wrap">
        {waiting ? t('ui:quit.waitingHint', { keys: quitKeys }) : t('ui:quit.hint', { keys: quitKeys })}
      </Text>
    </Box>
  );
}

/** The question as a pane (it replaces the input line while it is up). */
export function quitQuestionPane(runtime: RuntimeApi, keys: KeyTable, quit: () => void): Pane {
  return {
    id: QUIT_PANE_ID,
    render: (props) => <QuitQuestion runtime={runtime} keys={keys} width={props.width} quit={quit} stay={props.close} />,
  };
}
