// A value kept in a ref and rendered through useSyncExternalStore: key handlers read and
// set it at once (a burst of keys sees each change before the next render), and a change
// re-renders in the microtask React queues for it. App's quitting flag and the type-ahead
// queue both need exactly that.
import { useCallback, useRef, useSyncExternalStore } from 'react';

export interface RefStore<T> {
  /** The value as rendered. */
  readonly value: T;
  /** The value as of now. Stable. */
  get(): T;
  /** Sets it and re-renders. Stable. */
  set(next: T): void;
}

export function useRefStore<T>(initial: T): RefStore<T> {
  const store = useRef({ value: initial, listeners: new Set<() => void>() });
  const subscribe = useCallback((listener: () => void) => {
    store.current.listeners.add(listener);
    return () => {
      store.current.listeners.delete(listener);
    };
  }, []);
  const get = useCallback(() => store.current.value, []);
  const value = useSyncExternalStore(subscribe, get, get);
  const set = useCallback((next: T) => {
    store.current.value = next;
    for (const listener of [...store.current.listeners]) listener();
  }, []);
  return { value, get, set };
}
