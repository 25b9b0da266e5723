// A run's pause gate. The loop awaits it at every step boundary: while paused no new model
// call and no new tool call starts. A step already in flight is allowed to finish.

export class PauseGate {
  private waiters: Array<() => void> = [];
  private pausedFlag = false;

  get paused(): boolean {
    return this.pausedFlag;
  }

  pause(): void {
    this.pausedFlag = true;
  }

  resume(): void {
    if (!this.pausedFlag) return;
    this.pausedFlag = false;
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  /** Resolves at once when not paused; otherwise when resumed or when the signal aborts. */
  wait(signal?: AbortSignal): Promise<void> {
    if (!this.pausedFlag || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
