// The process-wide concurrency lane for child runs ([delegation] max_concurrent).
// Children beyond the limit wait in FIFO order, visibly: every change to the queue reports
// each waiter's 1-based position. A run that blocks on its own children gives its slot up
// while it waits (suspendWhile), so a tree of waiting parents can never deadlock the lane.

interface Waiter {
  runId: string;
  /** Goes ahead of ordinary waiters, behind earlier priority ones. */
  priority: boolean;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class ConcurrencyLane {
  private holders = new Set<string>();
  private queue: Waiter[] = [];

  constructor(
    private max: number,
    private readonly onQueueChange: (positions: Map<string, number>) => void,
  ) {}

  setMax(max: number): void {
    this.max = max;
    this.pump();
  }

  get running(): number {
    return this.holders.size;
  }

  get queued(): number {
    return this.queue.length;
  }

  holds(runId: string): boolean {
    return this.holders.has(runId);
  }

  /** Resolves once the run holds a slot; rejects if the signal aborts while it waits. */
  acquire(runId: string, signal?: AbortSignal, priority = false): Promise<void> {
    if (this.holders.size < this.max && this.queue.length === 0) {
      this.holders.add(runId);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        runId,
        priority,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        this.remove(runId);
        reject(new Error('aborted while queued'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const firstOrdinary = priority ? this.queue.findIndex((w) => !w.priority) : -1;
      if (firstOrdinary >= 0) this.queue.splice(firstOrdinary, 0, waiter);
      else this.queue.push(waiter);
      this.report();
      this.pump();
    });
  }

  release(runId: string): void {
    if (this.holders.delete(runId)) this.pump();
    else this.remove(runId);
  }

  /** Gives the slot up while `work` runs (the holder is blocked on its children), then takes
   * it back ahead of the queue. */
  async suspendWhile<T>(runId: string, work: Promise<T>): Promise<T> {
    if (!this.holders.has(runId)) return work;
    this.release(runId);
    try {
      return await work;
    } finally {
      await this.acquire(runId, undefined, true);
    }
  }

  private remove(runId: string): void {
    const before = this.queue.length;
    this.queue = this.queue.filter((w) => w.runId !== runId);
    if (this.queue.length !== before) this.report();
  }

  private pump(): void {
    let moved = false;
    while (this.holders.size < this.max && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.holders.add(next.runId);
      next.resolve();
      moved = true;
    }
    if (moved) this.report();
  }

  private report(): void {
    const positions = new Map<string, number>();
    this.queue.forEach((w, i) => positions.set(w.runId, i + 1));
    this.onQueueChange(positions);
  }
}
