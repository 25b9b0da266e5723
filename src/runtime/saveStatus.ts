// The session writer's state as the user sees it: `saveError` in the store (the status
// bar) and one notice when saving starts failing, one when it works again. A save failure
// never ends a turn or hides its answer: the writer keeps the events and retries.
import { t } from '../i18n/index.js';
import type { RuntimeStore } from './store.js';

export interface SaveStatus {
  /** A message while saving fails, undefined once a save works again. */
  report(message: string | undefined): void;
  /** Writes the session through `flush`; a failure is reported, never thrown. */
  flush(): void;
}

export function saveStatus(
  store: RuntimeStore,
  flush: (() => void) | undefined,
  notice: (level: 'info' | 'warn', text: string) => void,
): SaveStatus {
  function report(message: string | undefined): void {
    const prev = store.getState().saveError;
    if (message === undefined) {
      if (prev === undefined) return;
      store.setState({ saveError: undefined });
      notice('info', t('runtime:save.recovered'));
      return;
    }
    if (prev === message) return;
    store.setState({ saveError: message });
    if (prev === undefined) notice('warn', t('runtime:save.failed', { error: message }));
  }
  return {
    report,
    flush() {
      try {
        flush?.();
      } catch (err) {
        report((err as Error).message);
      }
    },
  };
}
