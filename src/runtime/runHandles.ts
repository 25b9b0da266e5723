// The live runs' handles (abort controller, pause gate, steering queue) and, per parent,
// how many of its children hold one: an upper bound of its live children that spares the
// child-limit check a walk over the tree until a parent is near its limit.
import { setMaxListeners } from 'node:events';
import { PauseGate } from './pauseGate.js';
import type { RunHandle } from './supervisorTypes.js';

export class RunHandles {
  private readonly byId = new Map<string, RunHandle>();
  /** Children holding a handle, by parent run. */
  private readonly byParent = new Map<string, number>();

  /** What stop, pause and resume walk (runControl.ts); only this class adds or drops one. */
  get live(): ReadonlyMap<string, RunHandle> {
    return this.byId;
  }

  /** A new handle for a run; `onHeld` is called when its loop waits at the pause gate. A
   * child passes its parent's signal: the parent's abort reaches it. */
  register(runId: string, onHeld: () => void, parentSignal?: AbortSignal): RunHandle {
    const controller = new AbortController();
    // Each live child listens on its parent's signal: a fan-out of more than ten is normal
    // here, and Node's leak warning would otherwise print over the chat screen.
    setMaxListeners(0, controller.signal);
    const handle: RunHandle = { runId, controller, gate: new PauseGate(onHeld), steering: [], laned: false };
    if (parentSignal) {
      const onParentAbort = () => {
        handle.stopReason ??= 'cancelled';
        // A kill aborts the children first: abort() would still make its default reason.
        if (!controller.signal.aborted) controller.abort(parentSignal.reason);
      };
      if (parentSignal.aborted) onParentAbort();
      else {
        parentSignal.addEventListener('abort', onParentAbort, { once: true });
        // Removed when the child ends, however it ends: a parent with many children must not
        // pile up listeners (Node warns past ten, and the warning would land on the screen).
        handle.detach = () => parentSignal.removeEventListener('abort', onParentAbort);
      }
    }
    this.byId.set(runId, handle);
    return handle;
  }

  /** A child of `parentRunId` registered its handle. */
  countChild(parentRunId: string): void {
    this.byParent.set(parentRunId, (this.byParent.get(parentRunId) ?? 0) + 1);
  }

  get(runId: string): RunHandle | undefined {
    return this.byId.get(runId);
  }

  /** Drops a run's handle; a child (`parentRunId` given) no longer counts for its parent. */
  drop(runId: string, parentRunId?: string): void {
    if (!this.byId.delete(runId) || parentRunId === undefined) return;
    const n = (this.byParent.get(parentRunId) ?? 0) - 1;
    if (n > 0) this.byParent.set(parentRunId, n);
    else this.byParent.delete(parentRunId);
  }

  /** False when the run certainly has fewer than `atLeast` live children: every live child
   * holds a handle until it ends, so the handle count bounds the live count from above and
   * the exact count (a walk over the children) is needed only near a limit. */
  mayHaveLiveChildren(runId: string, atLeast: number): boolean {
    return (this.byParent.get(runId) ?? 0) >= atLeast;
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  get size(): number {
    return this.byId.size;
  }
}
