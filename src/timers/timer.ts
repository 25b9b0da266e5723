// The one way arbor waits for a configured or server-given duration. Node's setTimeout
// takes at most 2^31-1 ms (about 24.8 days); anything longer is clamped to 1 ms with a
// TimeoutOverflowWarning, so a 5,000,000 s timeout or a reset a month away would fire at
// once. A Timer arms at most that much at a time and re-arms until the whole wait is over.

/** The longest delay one setTimeout accepts. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface Timer {
  /** Stops it: the callback never runs. Safe to call more than once, and after it fired. */
  clear(): void;
  /** The timer no longer keeps the process alive (for this and every later step). */
  unref(): Timer;
  /** Whether it is still waiting. */
  readonly pending: boolean;
}

export interface TimerOptions {
  /** Start unref'd: a timeout that must not hold a finished process open. */
  unref?: boolean;
}

/** A wait as a delay Node can take: NaN and negatives are 0; Infinity never ends. */
function normalise(ms: number): number {
  if (Number.isNaN(ms) || ms <= 0) return 0;
  return ms;
}

/** Runs `fn` once after `ms` milliseconds, however long that is. `Infinity` never fires. */
export function startTimer(ms: number, fn: () => void, opts: TimerOptions = {}): Timer {
  let left = normalise(ms);
  let handle: NodeJS.Timeout | undefined;
  let pending = true;
  let unrefd = opts.unref === true;
  const arm = () => {
    const step = Math.min(left, MAX_TIMER_MS);
    left -= step;
    handle = setTimeout(() => {
      handle = undefined;
      if (!pending) return;
      if (left > 0) return arm();
      pending = false;
      fn();
    }, step);
    if (unrefd) handle.unref?.();
  };
  // An endless wait arms nothing: there is no moment for it to fire.
  if (left !== Infinity) arm();
  const timer: Timer = {
    clear() {
      pending = false;
      if (handle) clearTimeout(handle);
      handle = undefined;
    },
    unref() {
      unrefd = true;
      handle?.unref?.();
      return timer;
    },
    get pending() {
      return pending;
    },
  };
  return timer;
}

/** Resolves after `ms`; rejects with `onAbort()` as soon as `signal` fires. */
export function sleep(
  ms: number,
  signal?: AbortSignal,
  onAbort: () => unknown = () => signal?.reason,
  opts: TimerOptions = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const abort = () => {
      timer.clear();
      reject(onAbort());
    };
    const timer = startTimer(
      ms,
      () => {
        signal?.removeEventListener('abort', abort);
        resolve();
      },
      opts,
    );
    signal?.addEventListener('abort', abort, { once: true });
  });
}
