// How a run reads on screen, shared by the /agents pane, /subagents and the transcript
// cards: its active time, its status colour and its error.
import { t } from '../i18n/index.js';
import type { Run, RunStatus } from '../model/run.js';

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

/** The run's error as the operator reads it: one the runtime wrote itself (it left a code)
 * in the current language; any other (a provider's or tool's message) as recorded. */
export function runErrorText(run: Run): string | undefined {
  return run.errorCode !== undefined ? t(`runtime:runError.${run.errorCode}`, run.errorParams) : run.error;
}
