// A run's pause gate. The loop awaits it at every step boundary: while paused no new model
// call and no new tool call starts. A step already in flight is allowed to finish, so a
// pause is only *requested* by pause(); it holds once the loop reaches wait(), and
// `onHold` says so (the run then reads `paused` instead of `pausing…`).

export class PauseGate {
  private waiters: Array<() => void> = [];
  private pausedFlag = false;
  private heldFlag = false;

  constructor(private readonly onHold?: () => void) {}

  get paused(): boolean {
    return this.pausedFlag;
  }

  /** True once the run has actually stopped at a step boundary during this pause. */
  get held(): boolean {
    return this.heldFlag;
  }

  pause(): void {
    this.pausedFlag = true;
  }

  resume(): void {
    if (!this.pausedFlag) return;
    this.pausedFlag = false;
    this.heldFlag = false;
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  /** Resolves at once when not paused; otherwise when resumed or when the signal aborts. */
  wait(signal?: AbortSignal): Promise<void> {
    if (!this.pausedFlag || signal?.aborted) return Promise.resolve();
    const promise = new Promise<void>((resolve) => {
      const done = () => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
    if (!this.heldFlag) {
      this.heldFlag = true;
      this.onHold?.();
    }
    return promise;
  }
}
