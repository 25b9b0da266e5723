// A model call that a provider's quota limit may hold (runtime/quotaPause.ts): the run waits
// at its gate, paused like any other, and then makes the same call again, so no step is lost.
import type { ModelProvider } from '../providers/types.js';
import type { PauseGate } from './pauseGate.js';
import type { QuotaWaiter } from './quotaPause.js';
import { patchRun, type RuntimeStore } from './store.js';

export interface QuotaWaitSpec {
  runId: string;
  store: RuntimeStore;
  provider: ModelProvider;
  signal: AbortSignal;
  gate: PauseGate;
  quota?: QuotaWaiter;
}

/** Runs `call`; while it fails on a quota limit the run may wait for, waits and calls again.
 * `aborted` is what a run stopped during the wait throws. */
export async function callWithQuotaWait<T>(spec: QuotaWaitSpec, aborted: () => Error, call: () => Promise<T>): Promise<T> {
  const quota = spec.quota;
  if (!quota) return call();
  if (quota.holdIfBlocked(spec.runId, spec.provider.name, spec.signal)) await waitHeld(spec, quota, aborted);
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (spec.signal.aborted || !quota.hold(spec.runId, spec.provider, err, spec.signal)) throw err;
      // A pause that did not take (no handle) would make this a busy loop against the server.
      if (!spec.gate.paused) {
        quota.leave(spec.runId);
        throw err;
      }
      // The refused call is made again: it is not a step of its own.
      patchRun(spec.store, spec.runId, (r) => ({ iterations: Math.max(0, r.iterations - 1) }));
      await waitHeld(spec, quota, aborted);
    }
  }
}

async function waitHeld(spec: QuotaWaitSpec, quota: QuotaWaiter, aborted: () => Error): Promise<void> {
  try {
    await spec.gate.wait(spec.signal);
    if (!spec.signal.aborted) await quota.readmit(spec.runId, spec.signal);
  } catch {
    // The lane wait ends only by an abort, handled below.
  } finally {
    quota.leave(spec.runId);
  }
  if (spec.signal.aborted) throw aborted();
}
