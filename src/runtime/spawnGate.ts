// The gates every tool that creates runs passes first: the operator's (or the runaway
// guard's) spawn pause, and `max_children_per_agent` over the caller's live children. The
// refusals are the literal text the model reads.
import type { ArborConfig } from '../config/types.js';
import type { RunHandles } from './runHandles.js';
import type { RuntimeStore } from './store.js';

export const SPAWN_PAUSED_REFUSAL =
  'Delegation spawning is paused. Clear the pause with p in /agents or /subagents resume before retrying.';
export const childrenLimitRefusal = (limit: number, live: number) =>
  `spawn refused: this run already has ${live} live children (max_children_per_agent = ${limit}). Wait for one to finish, or raise [delegation] max_children_per_agent in the config.`;

export class SpawnGate {
  private paused = false;

  constructor(
    private readonly store: RuntimeStore,
    private readonly config: ArborConfig,
    private readonly handles: Pick<RunHandles, 'mayHaveLiveChildren'>,
    /** The exact count of a run's live children (a walk over them). */
    private readonly liveChildCount: (runId: string) => number,
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  /** The spawn pause, mirrored in the store's controls for the views. */
  setPaused(paused: boolean): void {
    this.paused = paused;
    this.store.setState((s) => ({ controls: { ...s.controls, spawnPaused: paused } }));
  }

  /** Why `parentRunId` may not create a run now, or undefined. */
  refusal(parentRunId: string): string | undefined {
    if (this.paused) return SPAWN_PAUSED_REFUSAL;
    const limit = this.config.delegation.max_children_per_agent;
    if (!this.handles.mayHaveLiveChildren(parentRunId, limit)) return undefined;
    const live = this.liveChildCount(parentRunId);
    if (live >= limit) return childrenLimitRefusal(limit, live);
    return undefined;
  }
}
