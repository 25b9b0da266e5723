// Type-ahead: a message sent (Enter) while a turn runs waits here, shown above the input,
// and is sent as the next turn once the running one ends. ↑ on an empty line takes it back
// into the input (to edit, or to drop with Ctrl+U); interrupting the turn puts it back too,
// unsent, since the user stopped the work it was meant to follow. Kept in a ref read at the
// moment of each key, like the input line, so a burst of keys sees the current queue.
import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';

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
  const store = useRef<{ text: string | undefined; listeners: Set<() => void> }>({ text: undefined, listeners: new Set() });
  const subscribe = useCallback((listener: () => void) => {
    store.current.listeners.add(listener);
    return () => {
      store.current.listeners.delete(listener);
    };
  }, []);
  const snapshot = useCallback(() => store.current.text, []);
  const queued = useSyncExternalStore(subscribe, snapshot, snapshot);
  const set = useCallback((text: string | undefined) => {
    store.current.text = text;
    for (const listener of [...store.current.listeners]) listener();
  }, []);
  const queue = useCallback((text: string) => set(store.current.text === undefined ? text : `${store.current.text}\n${text}`), [set]);
  const take = useCallback(() => {
    const text = store.current.text;
    if (text !== undefined) set(undefined);
    return text;
  }, [set]);
  return useMemo(() => ({ queued, peek: snapshot, queue, take }), [queued, snapshot, queue, take]);
}
