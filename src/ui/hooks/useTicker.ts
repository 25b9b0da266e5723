// A frame counter for spinners and clocks. Every component ticking at the same interval
// shares one timer, so their updates land in one React commit: each commit costs Ink a
// full layout, and two unsynchronized spinners would double that.
import { useEffect, useState } from 'react';

const clocks = new Map<number, { timer: NodeJS.Timeout; listeners: Set<() => void> }>();

function subscribe(intervalMs: number, listener: () => void): () => void {
  let clock = clocks.get(intervalMs);
  if (!clock) {
    const listeners = new Set<() => void>();
    const timer = setInterval(() => {
      for (const l of listeners) l();
    }, intervalMs);
    timer.unref?.();
    clock = { timer, listeners };
    clocks.set(intervalMs, clock);
  }
  clock.listeners.add(listener);
  return () => {
    const c = clocks.get(intervalMs);
    if (!c) return;
    c.listeners.delete(listener);
    if (c.listeners.size === 0) {
      clearInterval(c.timer);
      clocks.delete(intervalMs);
    }
  };
}

export function useTicker(active: boolean, intervalMs: number): number {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (!active) return;
    return subscribe(intervalMs, () => setFrame((f) => f + 1));
  }, [active, intervalMs]);
  return frame;
}
