// Leaving the chat: `exit` quits (once), `requestExit` is what a quit key or /quit asks
// for — with background tasks running it opens the quit question first (QuitQuestion.tsx),
// and from that question a quit key quits anyway.
import { useCallback, useRef, type RefObject } from 'react';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { runningBackgroundTasks } from '../../runtime/store.js';
import { useRefStore } from '../hooks/useRefStore.js';
import type { KeyTable } from '../keys/keyTable.js';
import type { Pane } from '../panes/types.js';
import { QUIT_PANE_ID, quitQuestionPane } from './QuitQuestion.js';

export interface QuitDeps {
  runtime: RuntimeApi;
  onExit: () => void;
  paneRef: RefObject<Pane | null>;
  setPane: (pane: Pane | null) => void;
  clearFlash: () => void;
  keys: KeyTable;
}

export function useQuit({ runtime, onExit, paneRef, setPane, clearFlash, keys }: QuitDeps) {
  const exited = useRef(false);
  // The frame left on the terminal after quitting must reflect the quit (no "press Ctrl+C
  // again" flash). `quitting` is an external store: React renders its change in a
  // microtask queued at the change, so the onExit queued after it unmounts a screen that
  // already shows it — within the same turn of the event loop.
  const { value: quitting, set: setQuitting } = useRefStore(false);
  const onExitRef = useRef(onExit);
  onExitRef.current = onExit;
  const exit = useCallback(() => {
    if (exited.current) return;
    exited.current = true;
    setQuitting(true);
    queueMicrotask(() => onExitRef.current());
  }, [setQuitting]);

  const requestExitRef = useRef<() => void>(exit);
  const requestExit = useCallback(() => requestExitRef.current(), []);
  requestExitRef.current = () => {
    if (exited.current) return;
    if (paneRef.current?.id === QUIT_PANE_ID || runningBackgroundTasks(runtime.store.getState()).length === 0) return exit();
    clearFlash();
    setPane(quitQuestionPane(runtime, keys, exit));
  };
  return { quitting, requestExit };
}
