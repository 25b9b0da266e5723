// A slice of a store that refreshes at most ~10 times a second. Children change the store
// many times a second (tokens, tool events); a card redraws on a timer when its slice
// changed, never per update, and schedules nothing while the store is quiet.
import { useEffect, useRef, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';

export const REFRESH_MS = 100;

export function useThrottledSelector<S, T>(
  store: StoreApi<S> | undefined,
  select: (s: S) => T,
  equal: (a: T, b: T) => boolean,
  fallback: T,
  intervalMs = REFRESH_MS,
): T {
  const selectRef = useRef(select);
  selectRef.current = select;
  const [value, setValue] = useState<T>(() => (store ? select(store.getState()) : fallback));
  const valueRef = useRef(value);
  valueRef.current = value;

  useEffect(() => {
    if (!store) return;
    let timer: NodeJS.Timeout | undefined;
    let last = 0;
    const flush = () => {
      timer = undefined;
      last = Date.now();
      const next = selectRef.current(store.getState());
      if (!equal(valueRef.current, next)) {
        valueRef.current = next;
        setValue(next);
      }
    };
    const unsubscribe = store.subscribe(() => {
      if (timer) return;
      timer = setTimeout(flush, Math.max(0, intervalMs - (Date.now() - last)));
    });
    // Whatever changed between the first render and the subscription.
    flush();
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
    // `equal` is a module-level function at every call site; the selector is read via ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, intervalMs]);
  return value;
}
