// The loop contexts of child runs (each one's whole history, registry and identity), kept so
// a finished child can be steered into a new turn. A finished run's context is kept only
// while the run is still listed (archive_after_minutes), because only a listed run can be
// steered; after that it is dropped, so a long session does not hold every child's history.
import type { LoopContext } from './supervisorTypes.js';

interface Kept {
  ctx: LoopContext;
  /** When the run ended; undefined while it runs. */
  endedAt?: number;
}

export class LoopContexts {
  private readonly byRun = new Map<string, Kept>();
  /** Ended runs in the order they ended, so pruning looks only at the oldest ones instead
   * of every kept context at each end (that scan made a 1,000-child turn quadratic). */
  private readonly endOrder: { runId: string; endedAt: number }[] = [];
  private endHead = 0;

  /** `keepMs()`: how long a finished run stays listed (read at each use: the config's). */
  constructor(private readonly keepMs: () => number) {}

  /** A run's context if kept (a running run's always is). */
  get(runId: string): LoopContext | undefined {
    return this.byRun.get(runId)?.ctx;
  }

  set(ctx: LoopContext): void {
    this.byRun.set(ctx.run.id, { ctx });
  }

  ended(runId: string, now = Date.now()): void {
    const kept = this.byRun.get(runId);
    if (kept) {
      kept.endedAt = now;
      this.endOrder.push({ runId, endedAt: now });
    }
    this.prune(now);
  }

  /** The context of a run that may still be steered, or undefined. */
  steerable(runId: string, now = Date.now()): LoopContext | undefined {
    this.prune(now);
    return this.byRun.get(runId)?.ctx;
  }

  get size(): number {
    return this.byRun.size;
  }

  private prune(now: number): void {
    const keepMs = this.keepMs();
    while (this.endHead < this.endOrder.length) {
      const { runId, endedAt } = this.endOrder[this.endHead];
      const kept = this.byRun.get(runId);
      // A run steered again (set anew) or ended again since this entry is not this entry's.
      if (kept && kept.endedAt === endedAt) {
        if (now - endedAt < keepMs) break;
        this.byRun.delete(runId);
      }
      this.endHead++;
    }
    if (this.endHead > 1024 && this.endHead * 2 > this.endOrder.length) {
      this.endOrder.splice(0, this.endHead);
      this.endHead = 0;
    }
  }
}
