import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { startWatchdog } from '../../../src/timers/watchdog.js';

describe('startWatchdog', () => {
  let clock = 0;
  const now = () => clock;
  const advance = (ms: number) => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };
  beforeEach(() => {
    clock = 0;
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());
  /** `fired` has not run `ms - 1` ms from now, and has run once at `ms`. */
  const expectFiresAfter = (fired: Mock, ms: number) => {
    advance(ms - 1);
    expect(fired).not.toHaveBeenCalled();
    advance(1);
    expect(fired).toHaveBeenCalledOnce();
  };

  it('fires after a window of silence', () => {
    const fired = vi.fn();
    startWatchdog(1000, fired, now);
    expectFiresAfter(fired, 1000);
  });

  it('counts the window from the last touch, with one timer armed however many events', () => {
    const fired = vi.fn();
    const dog = startWatchdog(1000, fired, now);
    for (let i = 0; i < 50; i++) {
      advance(100);
      dog.touch();
    }
    // Fifty events in five seconds: still one pending timer, never fired.
    expect(vi.getTimerCount()).toBe(1);
    expect(fired).not.toHaveBeenCalled();
    expectFiresAfter(fired, 1000);
  });

  it('a new window starts from now, shorter or equal or longer', () => {
    for (const next of [200, 1000, 5000]) {
      clock = 0;
      const fired = vi.fn();
      const dog = startWatchdog(1000, fired, now);
      advance(900);
      dog.setWindow(next);
      expectFiresAfter(fired, next);
    }
  });

  it('never fires after clear', () => {
    const fired = vi.fn();
    const dog = startWatchdog(1000, fired, now);
    dog.clear();
    advance(10_000);
    expect(fired).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
