// A timeout whose clock stops while its run is paused (run_timeout_secs counts active time).
import { startTimer, type Timer } from '../timers/timer.js';

export class PausableTimer {
  private remainingMs: number;
  private startedAt = 0;
  private handle: Timer | undefined;
  private fired = false;

  constructor(
    ms: number,
    private readonly onFire: () => void,
  ) {
    this.remainingMs = ms;
  }

  start(): void {
    if (this.fired || this.handle) return;
    this.startedAt = Date.now();
    this.handle = startTimer(
      this.remainingMs,
      () => {
        this.fired = true;
        this.handle = undefined;
        this.onFire();
      },
      { unref: true },
    );
  }

  pause(): void {
    if (!this.handle) return;
    this.handle.clear();
    this.handle = undefined;
    this.remainingMs = Math.max(0, this.remainingMs - (Date.now() - this.startedAt));
  }

  resume(): void {
    this.start();
  }

  clear(): void {
    this.handle?.clear();
    this.handle = undefined;
    this.fired = true;
  }

  get remaining(): number {
    return this.handle ? Math.max(0, this.remainingMs - (Date.now() - this.startedAt)) : this.remainingMs;
  }
}
