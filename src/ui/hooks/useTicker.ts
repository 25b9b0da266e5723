// A frame counter that advances only while `active`, for spinners and elapsed time.
// Idle screens schedule no timers at all.
import { useEffect, useState } from 'react';

export function useTicker(active: boolean, intervalMs: number): number {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setFrame((f) => f + 1), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return frame;
}
