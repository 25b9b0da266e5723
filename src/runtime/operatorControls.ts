// What the operator does to runs through RuntimeApi: interrupt the turn, pause, resume
// (the answer to a runaway trip when it is that tree), kill, steer (a finished child
// continues in a new run whose answer is posted as a notice) and the spawn pause.
import { t } from '../i18n/index.js';
import type { RunawayGuard } from './runawayGuard.js';
import type { RuntimeApi } from './runtimeApi.js';
import { runLabel } from './runSelection.js';
import type { RuntimeStore } from './store.js';
import type { Supervisor } from './supervisor.js';

export type OperatorControls = Pick<RuntimeApi, 'interrupt' | 'pause' | 'resume' | 'kill' | 'steer' | 'setSpawnPaused' | 'resolveRunaway'>;

export function operatorControls(
  store: RuntimeStore,
  supervisor: Supervisor,
  guard: Pick<RunawayGuard, 'resolve'>,
  notice: (level: 'info' | 'error', text: string) => void,
): OperatorControls {
  /** A finished child continues in a new run; its answer (or failure) becomes a notice. */
  function continueFinished(runId: string, message: string): void {
    const label = runLabel(store.getState(), runId);
    void supervisor.continueFinished(runId, message).then((outcome) => {
      if (!outcome) return;
      // The continuation is a new run with a number of its own; the old number keeps
      // naming the run that finished, so the notice names both.
      const next = runLabel(store.getState(), outcome.run.id);
      if (outcome.status === 'completed')
        notice('info', t('runtime:numbers.continuedAnswer', { label: next, from: label, text: outcome.text || t('runtime:steer.empty') }));
      else notice('error', t('runtime:numbers.continuedFailed', { label: next, from: label, error: outcome.error ?? outcome.status }));
    });
  }

  return {
    interrupt() {
      const id = store.getState().activeRootRunId;
      if (id) supervisor.stop(id, 'cancelled');
    },
    pause: (runId) => supervisor.pause(runId),
    resume(runId) {
      const runaway = store.getState().controls.runaway;
      // Resuming the tree the guard paused is the user's answer to the trip.
      if (runaway.tripped && runaway.rootRunId === runId) guard.resolve('resume');
      else supervisor.resume(runId);
    },
    kill: (runId) => supervisor.kill(runId),
    steer(runId, message) {
      if (supervisor.steer(runId, message)) return 'delivered';
      if (!supervisor.steerableContext(runId)) return 'unknown';
      continueFinished(runId, message);
      return 'continued';
    },
    setSpawnPaused: (paused) => supervisor.setSpawnPaused(paused),
    resolveRunaway: (choice) => guard.resolve(choice),
  };
}
