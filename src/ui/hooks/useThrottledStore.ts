// A slice of a store that refreshes at most ~10 times a second. A tree of children changes
// the store many times a second (tokens, tool events); a view redraws on a timer when its
// slice changed, never per update, and schedules nothing while the store is quiet.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';

/** ~10 refreshes a second: live enough to watch, cheap enough with 500 rows. */
export const REFRESH_MS = 100;

const identity = <S>(s: S) => s;

/**
 * The selected slice, and `refresh()` to take it anew at once: after the user's own action,
 * so the frame that answers the key already shows its effect. `equal` and `select` may be
 * new functions on every render (they are read through refs).
 */
export function useThrottledStore<S, T = S>(
  store: StoreApi<S> | undefined,
  select: (s: S) => T = identity as (s: S) => T,
  equal: (a: T, b: T) => boolean = Object.is,
  fallback?: T,
  intervalMs = REFRESH_MS,
): readonly [T, () => void] {
  const selectRef = useRef(select);
  selectRef.current = select;
  const equalRef = useRef(equal);
  equalRef.current = equal;
  const [value, setValue] = useState<T>(() => (store ? select(store.getState()) : (fallback as T)));
  const valueRef = useRef(value);
  valueRef.current = value;

  const refresh = useCallback(() => {
    if (!store) return;
    const next = selectRef.current(store.getState());
    if (!equalRef.current(valueRef.current, next)) {
      valueRef.current = next;
      setValue(next);
    }
  }, [store]);

  useEffect(() => {
    if (!store) return;
    let timer: NodeJS.Timeout | undefined;
    let last = 0;
    const flush = () => {
      timer = undefined;
      last = Date.now();
      refresh();
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
  }, [store, intervalMs, refresh]);
  return [value, refresh] as const;
}
