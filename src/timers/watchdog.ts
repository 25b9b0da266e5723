// A silence limit for a stream: fires when nothing has happened for `ms`. Re-arming a
// timer on every event (a cleared and a new setTimeout per streamed chunk) was the
// streaming path's largest cost of arbor's own; here an event only records the time, and
// the one armed timer, when it comes due, re-arms for what is left of the window.
import { startTimer, type Timer } from './timer.js';

export interface Watchdog {
  /** Something happened: the window starts again from now. */
  touch(): void;
  /** From now on the window is `ms` (e.g. the first-byte limit gives way to the idle one). */
  setWindow(ms: number): void;
  clear(): void;
}

export function startWatchdog(ms: number, onSilence: () => void, now: () => number = performance.now.bind(performance)): Watchdog {
  let windowMs = ms;
  let last = now();
  let timer: Timer | undefined;
  let done = false;
  const arm = (delay: number) => {
    timer = startTimer(delay, () => {
      if (done) return;
      const left = last + windowMs - now();
      // Due early by the events since it was armed: wait out the rest of the window.
      if (left > 0) return arm(left);
      done = true;
      onSilence();
    });
  };
  arm(windowMs);
  return {
    touch() {
      last = now();
    },
    setWindow(next: number) {
      if (done) return;
      last = now();
      if (next === windowMs) return;
      windowMs = next;
      // A shorter window must not wait for the longer timer already armed.
      timer?.clear();
      arm(windowMs);
    },
    clear() {
      done = true;
      timer?.clear();
    },
  };
}
