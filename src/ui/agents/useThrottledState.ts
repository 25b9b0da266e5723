// A store snapshot that refreshes at most once per `intervalMs`. A tree of hundreds of
// children changes the store many times a second; the pane redraws on a timer when
// something changed, never per update, and schedules nothing while the store is quiet.
import { useCallback, useEffect, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';

/** ~10 refreshes a second: live enough to watch, cheap enough with 500 rows. */
export const REFRESH_MS = 100;

/** The snapshot, and `refresh()` to take a new one at once: after the user's own action, so
 * the frame that answers the key already shows its effect. */
export function useThrottledState<S>(store: StoreApi<S>, intervalMs = REFRESH_MS): readonly [S, () => void] {
  const [snapshot, setSnapshot] = useState(() => store.getState());
  const refresh = useCallback(() => setSnapshot(store.getState()), [store]);
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    let last = Date.now();
    const flush = () => {
      timer = undefined;
      last = Date.now();
      setSnapshot(store.getState());
    };
    const unsubscribe = store.subscribe(() => {
      if (timer) return;
      timer = setTimeout(flush, Math.max(0, intervalMs - (Date.now() - last)));
    });
    // Whatever changed between the first render and the subscription.
    if (store.getState() !== snapshot) flush();
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
    // The snapshot read above is the first one; later ones come through the subscription.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, intervalMs]);
  return [snapshot, refresh] as const;
}
