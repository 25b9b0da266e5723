// Type-ahead: a message sent (Enter) while a turn runs waits here, shown above the input,
// and is sent as the next turn once the running one ends. ↑ on an empty line takes it back
// into the input (to edit, or to drop with Ctrl+U); interrupting the turn puts it back too,
// unsent, since the user stopped the work it was meant to follow. Kept in a ref read at the
// moment of each key, like the input line, so a burst of keys sees the current queue.
import { useCallback, useMemo } from 'react';
import { useRefStore } from './useRefStore.js';

export interface TypeAhead {
  /** The queued message, or undefined. Changes re-render the screen. */
  readonly queued: string | undefined;
  /** As of now (a key handler may run before the next render). */
  peek(): string | undefined;
  /** Queues a message; a second one joins the first as a new line (one next turn). */
  queue(text: string): void;
  /** Removes and returns the queued message. */
  take(): string | undefined;
}

export function useTypeAhead(): TypeAhead {
  const { value: queued, get: peek, set } = useRefStore<string | undefined>(undefined);
  const queue = useCallback(
    (text: string) => {
      const now = peek();
      set(now === undefined ? text : `${now}\n${text}`);
    },
    [peek, set],
  );
  const take = useCallback(() => {
    const text = peek();
    if (text !== undefined) set(undefined);
    return text;
  }, [peek, set]);
  return useMemo(() => ({ queued, peek, queue, take }), [queued, peek, queue, take]);
}
