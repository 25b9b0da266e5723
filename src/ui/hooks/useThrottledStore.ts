// A slice of a store taken on a timer, not per update. A tree of children changes the store
// many times a second (tokens, tool events); a view takes its slice at most once per
// interval when it changed, never per update, and schedules nothing while the store is
// quiet. The last change is always taken: a timer is pending from the first change after a
// take until the next take. A change the caller calls `urgent` (the chat's turn starting or
// ending, a notice) is taken at once, as a plain store subscription would.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';

/** ~10 refreshes a second: live enough to watch, cheap enough with 500 rows. */
export const REFRESH_MS = 100;

/** One frame: renderApp's MAX_FPS is 1000 / FRAME_MS; the chat's slices are taken once a
 * frame (a take more often than Ink draws is never seen). */
export const FRAME_MS = 50;

export interface ThrottleOptions<T> {
  /** Same slice: nothing to draw (Object.is when not given). */
  equal?: (a: T, b: T) => boolean;
  /** The slice while there is no store. */
  fallback?: T;
  /** At most one take per this many ms for changes that are not urgent (REFRESH_MS). */
  intervalMs?: number;
  /** The change from the slice last taken to `next` must show at once. With it, each store
   * update is selected when it comes (to ask), and one equal to the slice taken schedules
   * nothing. */
  urgent?: (taken: T, next: T) => boolean;
}

const identity = <S>(s: S) => s;

/**
 * The selected slice, and `refresh()` to take it anew at once: after the user's own action,
 * so the frame that answers the key already shows its effect. `select` and the options'
 * functions may be new on every render (they are read through refs).
 */
export function useThrottledStore<S, T = S>(
  store: StoreApi<S> | undefined,
  select: (s: S) => T = identity as (s: S) => T,
  options: ThrottleOptions<T> = {},
): readonly [T, () => void] {
  const selectRef = useRef(select);
  selectRef.current = select;
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const [value, setValue] = useState<T>(() => (store ? select(store.getState()) : (options.fallback as T)));
  // What was last taken (set before React renders it, so a change right after compares
  // against it and not against the render before).
  const valueRef = useRef(value);
  valueRef.current = value;

  const refresh = useCallback(() => {
    if (!store) return;
    const next = selectRef.current(store.getState());
    if ((optionsRef.current.equal ?? Object.is)(valueRef.current, next)) return;
    valueRef.current = next;
    setValue(next);
  }, [store]);

  const intervalMs = options.intervalMs ?? REFRESH_MS;
  useEffect(() => {
    if (!store) return;
    let timer: NodeJS.Timeout | undefined;
    let last = 0;
    const flush = () => {
      timer = undefined;
      last = Date.now();
      refresh();
    };
    const unsubscribe = store.subscribe((state) => {
      const { urgent, equal = Object.is } = optionsRef.current;
      if (urgent) {
        const next = selectRef.current(state);
        if (urgent(valueRef.current, next)) {
          if (timer) clearTimeout(timer);
          flush();
          return;
        }
        if (!timer && equal(valueRef.current, next)) return;
      }
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
