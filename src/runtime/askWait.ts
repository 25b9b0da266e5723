// A run waiting for the operator's answer to its ask (runtime/approvals.ts). Its
// active-time clock (the run timeout) stops meanwhile, as for a pause, and it reads
// `awaiting_approval` — or `paused`, if it was paused: a paused run's ask stays in the queue
// and can still be answered, but an allowed call runs only once the run is resumed
// (loop.ts waits at the gate), and nothing is answered for it on its own.
import { setRunStatus, type RuntimeStore } from './store.js';
import type { RunHandle } from './supervisorTypes.js';

export function applyAskWait(store: RuntimeStore, handle: RunHandle | undefined, runId: string, waiting: boolean): void {
  const status = store.getState().runs.get(runId)?.status;
  if (!handle) {
    // No handle (a run being torn down): only the status, as the broker would.
    if (waiting) setRunStatus(store, runId, 'awaiting_approval');
    else if (status === 'awaiting_approval') setRunStatus(store, runId, 'running');
    return;
  }
  handle.asking = Math.max(0, (handle.asking ?? 0) + (waiting ? 1 : -1));
  if (waiting) {
    handle.timer?.pause();
    setRunStatus(store, runId, handle.gate.paused ? 'paused' : 'awaiting_approval');
    return;
  }
  if (handle.asking > 0 || handle.gate.paused || handle.controller.signal.aborted) return;
  if (status === 'awaiting_approval') setRunStatus(store, runId, 'running');
  handle.timer?.resume();
}
