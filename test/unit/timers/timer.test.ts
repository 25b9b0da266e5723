// The one timer helper: any duration, re-armed in steps under Node's 2^31-1 ms limit, with
// clear and unref. Fake timers (vitest's, which clamp an overflowing delay to 1 ms like Node)
// stand in for weeks; a real process checks that no TimeoutOverflowWarning is ever raised.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, sleep, startTimer } from '../../../src/timers/timer.js';
import { PausableTimer } from '../../../src/runtime/pausableTimer.js';

const FIVE_MILLION_S = 5_000_000 * 1000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startTimer', () => {
  it('a raw setTimeout past the limit fires at once under the fake clock too (the defect this guards)', () => {
    const fn = vi.fn();
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    setTimeout(fn, FIVE_MILLION_S);
    vi.advanceTimersByTime(10);
    warn.mockRestore();
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('5,000,000 s does not fire at the first step, and fires at the end', () => {
    const fn = vi.fn();
    startTimer(FIVE_MILLION_S, fn);
    vi.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(FIVE_MILLION_S - MAX_TIMER_MS - 1001);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(FIVE_MILLION_S);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('clear between two steps stops it for good', () => {
    const fn = vi.fn();
    const timer = startTimer(FIVE_MILLION_S, fn);
    vi.advanceTimersByTime(MAX_TIMER_MS + 5);
    expect(timer.pending).toBe(true);
    timer.clear();
    expect(timer.pending).toBe(false);
    vi.advanceTimersByTime(FIVE_MILLION_S);
    expect(fn).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('short waits, 0, negatives and NaN fire when due; Infinity never arms', () => {
    const fns = [vi.fn(), vi.fn(), vi.fn(), vi.fn()];
    startTimer(50, fns[0]);
    startTimer(0, fns[1]);
    startTimer(-5, fns[2]);
    startTimer(Number.NaN, fns[3]);
    const never = vi.fn();
    const endless = startTimer(Infinity, never);
    vi.advanceTimersByTime(49);
    expect(fns[0]).not.toHaveBeenCalled();
    expect(fns.slice(1).every((f) => f.mock.calls.length === 1)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(fns[0]).toHaveBeenCalledTimes(1);
    expect(endless.pending).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(never).not.toHaveBeenCalled();
  });

  it('unref holds for every later step', () => {
    const timer = startTimer(FIVE_MILLION_S, () => {}, { unref: true });
    // A vi.fn put in by hand, not vi.spyOn: a spy's restore stays registered after
    // mockRestore and vitest runs it again once the file ends, after useRealTimers, putting
    // back the fake setTimeout of an uninstalled clock. In a shared worker no later file's
    // timer then ever fired.
    const fakeSetTimeout = globalThis.setTimeout;
    const unref = vi.fn(fakeSetTimeout);
    globalThis.setTimeout = unref as unknown as typeof setTimeout;
    try {
      vi.advanceTimersByTime(MAX_TIMER_MS);
    } finally {
      globalThis.setTimeout = fakeSetTimeout;
    }
    const armed = unref.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(armed.hasRef()).toBe(false);
    timer.clear();
  });

  it('sleep resolves after the whole wait and rejects at once on abort', async () => {
    const done = vi.fn();
    void sleep(FIVE_MILLION_S).then(done);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 10);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(FIVE_MILLION_S);
    expect(done).toHaveBeenCalled();
    const ac = new AbortController();
    const slept = sleep(FIVE_MILLION_S, ac.signal, () => new Error('stopped'));
    ac.abort();
    await expect(slept).rejects.toThrow('stopped');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('PausableTimer (run_timeout_secs, max_child_seconds)', () => {
  it('5,000,000 s of active time does not fire at once, and a pause stops its clock', () => {
    const fired = vi.fn();
    const timer = new PausableTimer(FIVE_MILLION_S, fired);
    timer.start();
    vi.advanceTimersByTime(MAX_TIMER_MS + 1000);
    expect(fired).not.toHaveBeenCalled();
    timer.pause();
    vi.advanceTimersByTime(FIVE_MILLION_S);
    expect(fired).not.toHaveBeenCalled();
    timer.resume();
    vi.advanceTimersByTime(FIVE_MILLION_S - MAX_TIMER_MS - 1001);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });
});

describe('with real timers', () => {
  it('a timer of 5,000,000 s raises no TimeoutOverflowWarning', async () => {
    vi.useRealTimers();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const fired = vi.fn();
    const timer = startTimer(FIVE_MILLION_S, fired);
    // Node emits the warning on the next tick after arming.
    await new Promise((r) => setImmediate(r));
    timer.clear();
    process.off('warning', onWarning);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
    expect(fired).not.toHaveBeenCalled();
  });
});
