// How a run reads on screen, shared by the /agents pane, /subagents and the transcript
// cards: its active time and its status colour.
import type { Run, RunStatus } from '../runtime/types.js';

/** Time the run has spent running: from its start to its end (or now), less pauses. */
export function activeMs(run: Run, now: number): number {
  if (run.startedAt === undefined) return 0;
  const end = run.endedAt ?? now;
  const pausedNow = run.pausedAt !== undefined && run.endedAt === undefined ? Math.max(0, now - run.pausedAt) : 0;
  return Math.max(0, end - run.startedAt - run.pausedMs - pausedNow);
}

export const STATUS_COLORS: Record<RunStatus, string> = {
  queued: 'gray',
  running: 'cyan',
  pausing: 'yellow',
  paused: 'yellow',
  awaiting_approval: 'yellow',
  completed: 'green',
  failed: 'red',
  killed: 'red',
  timed_out: 'red',
  cancelled: 'gray',
};
