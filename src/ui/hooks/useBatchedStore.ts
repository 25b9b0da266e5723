// A slice of a store taken at most once a frame, except changes that must show at once.
// A tree of children changes the store hundreds of times a second, each change a render of
// every component that reads it, drawn in the microtask after the change: with 1,000
// children one event's burst of updates was one long synchronous run of renders, and a key
// waited behind it. Here a change the caller calls `urgent` (a turn starting or ending, a
// notice) is taken at once, as a plain store subscription would; any other change is taken
// on a timer, once per `intervalMs` whatever came between, and the last change is always
// taken: a timer is pending from the first change after a take until the next take.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';

/** One frame: renderApp's MAX_FPS is 1000 / FRAME_MS; a take more often than Ink draws is
 * never seen. */
export const FRAME_MS = 50;

export interface BatchedStoreOptions<T> {
  /** Same slice: nothing to draw. */
  equal: (a: T, b: T) => boolean;
  /** The change from the slice last taken to `next` must show at once. */
  urgent?: (taken: T, next: T) => boolean;
  /** At most one take per this many ms for changes that are not urgent. */
  intervalMs: number;
}

/** The slice, and `refresh()` to take it anew at once. `select` and the options' functions
 * may be new on every render (they are read through refs). */
export function useBatchedStore<S, T>(store: StoreApi<S>, select: (s: S) => T, options: BatchedStoreOptions<T>): readonly [T, () => void] {
  const selectRef = useRef(select);
  selectRef.current = select;
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const [value, setValue] = useState<T>(() => select(store.getState()));
  // What was last taken (set before React renders it, so a change right after compares
  // against it and not against the render before).
  const takenRef = useRef(value);

  const take = useCallback((next: T) => {
    if (optionsRef.current.equal(takenRef.current, next)) return;
    takenRef.current = next;
    setValue(next);
  }, []);
  const refresh = useCallback(() => take(selectRef.current(store.getState())), [store, take]);

  const { intervalMs } = options;
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    let last = 0;
    const flush = () => {
      timer = undefined;
      last = Date.now();
      refresh();
    };
    const unsubscribe = store.subscribe((state) => {
      const next = selectRef.current(state);
      const { equal, urgent } = optionsRef.current;
      if (urgent?.(takenRef.current, next)) {
        if (timer) clearTimeout(timer);
        flush();
        return;
      }
      if (timer || equal(takenRef.current, next)) return;
      timer = setTimeout(flush, Math.max(0, intervalMs - (Date.now() - last)));
    });
    // Whatever changed between the first render and the subscription.
    refresh();
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [store, intervalMs, refresh]);
  return [value, refresh] as const;
}
