// Stop, pause and resume over a subtree of runs, and the statuses those leave: the
// supervisor's control side, kept apart from creating and running children. It works on
// the supervisor's handles (it never creates or drops one) and the store.
import { descendantsOf, endRuns, liveSubtree, setRunStatus, type RuntimeStore } from './store.js';
import { ChildIndex } from '../model/childIndex.js';
import type { RunHandle, StopReason } from './supervisorTypes.js';
import { isTerminal, type Run } from './types.js';
import { runError, type KilledBy, type RunFailure } from '../model/run.js';

export class RunControl {
  /** The runs the last applyQueuePositions gave a position: the only ones it may have to clear. */
  private queuedOnce = new Set<string>();
  private readonly children = new ChildIndex();

  constructor(
    private readonly store: RuntimeStore,
    private readonly handles: ReadonlyMap<string, RunHandle>,
  ) {}

  /** How many children of the run have not ended. */
  liveChildCount(runId: string): number {
    const s = this.store.getState();
    return this.children.liveCount(s.runOrder, s.runs, runId, (id) => {
      const r = s.runs.get(id);
      return r !== undefined && !isTerminal(r.status);
    });
  }

  /** Live (non-terminal) children of a run. */
  liveChildren(runId: string): Run[] {
    const s = this.store.getState();
    const out: Run[] = [];
    for (const id of this.children.of(s.runOrder, s.runs, runId)) {
      const r = s.runs.get(id);
      if (r && !isTerminal(r.status)) out.push(r);
    }
    return out;
  }

  /** Stops a run and every descendant. Returns the descendants that were live.
   * `killedBy`: who a killed run's error says killed it; the operator by default. */
  stop(runId: string, reason: StopReason, killedBy: KilledBy = 'killedByOperator'): number {
    const s = this.store.getState();
    const run = s.runs.get(runId);
    if (!run) return 0;
    const targets = [run, ...descendantsOf(s, runId)].filter((r) => !isTerminal(r.status));
    // Mark first, deepest first, so each run's own outcome records the real reason.
    for (const r of targets.slice().reverse()) {
      const h = this.handles.get(r.id);
      if (h) {
        h.stopReason = reason;
        if (reason === 'killed') h.killedBy = killedBy;
      }
    }
    // One reason for the whole stop: abort() with none makes a DOMException (and its stack)
    // per run, a measurable part of killing a 1,000-child tree.
    const abortReason = new DOMException('This operation was aborted', 'AbortError');
    for (const r of targets.slice().reverse()) {
      const h = this.handles.get(r.id);
      if (h) {
        h.gate.resume();
        h.controller.abort(abortReason);
      } else {
        setRunStatus(this.store, r.id, reason);
      }
    }
    // A kill is final the moment it is asked for: started children read as killed now, in
    // one store update, not each once its model stream and tools have unwound (a 200-run
    // tree takes ~200 ms of teardown). Their own ending (endChild) then changes nothing.
    if (reason === 'killed') {
      const started = targets.filter((r) => r.kind !== 'root' && r.status !== 'queued' && this.handles.has(r.id)).map((r) => r.id);
      endRuns(this.store, started, 'killed', runError(killedBy));
    }
    return targets.filter((r) => r.id !== runId).length;
  }

  /** Stops every live run (each stop cascades to its subtree): the session is ending. Each
   * run's abort reaches its tools, so a running shell command gets its process-group kill.
   * Returns how many runs were stopped. */
  stopAll(reason: StopReason): number {
    let stopped = 0;
    for (const id of [...this.handles.keys()]) {
      const run = this.store.getState().runs.get(id);
      if (run && !isTerminal(run.status)) stopped += 1 + this.stop(id, reason);
    }
    return stopped;
  }

  kill(runId: string, killedBy?: KilledBy): { killed: boolean; descendants: number } {
    const run = this.store.getState().runs.get(runId);
    if (!run || isTerminal(run.status)) return { killed: false, descendants: 0 };
    const descendants = this.stop(runId, 'killed', killedBy);
    return { killed: true, descendants };
  }

  /** A per-child limit was reached: the run and its subtree stop; the run ends failed with
   * `failure` (childRuns.ts), its descendants cancelled. */
  stopForBudget(runId: string, failure: RunFailure): void {
    const h = this.handles.get(runId);
    const run = this.store.getState().runs.get(runId);
    if (!h || !run || isTerminal(run.status)) return;
    h.failure = failure;
    this.stop(runId, 'cancelled');
  }

  /** Asks a run to pause. A run that has not started, or is already waiting at its gate,
   * holds at once (`paused`); one in the middle of a step reads `pausing` until the loop
   * reaches its next step boundary (onHeld). */
  private pauseOne(runId: string): boolean {
    const h = this.handles.get(runId);
    // A run already asked to stop (killed, still unwinding) has nothing left to pause.
    if (!h || h.stopReason) return false;
    h.gate.pause();
    h.timer?.pause();
    const run = this.store.getState().runs.get(runId);
    if (!run || run.status === 'paused') return true;
    // A run waiting for the operator's answer is not moving either (askWait.ts).
    const holdsNow = run.startedAt === undefined || h.gate.held || (h.asking ?? 0) > 0;
    setRunStatus(this.store, runId, holdsNow ? 'paused' : 'pausing');
    return true;
  }

  /** The loop of `runId` stopped at its gate: the pause holds. */
  onHeld(runId: string): void {
    const run = this.store.getState().runs.get(runId);
    if (run?.status === 'pausing' || run?.status === 'running') {
      if (this.handles.get(runId)?.gate.paused) setRunStatus(this.store, runId, 'paused');
    }
    if (run?.parentRunId) this.settleWaitingParent(run.parentRunId);
  }

  /** A run whose step in flight is a wait on its children cannot move while every one of
   * them is held: it reads `paused` too. Walks up, since that may hold its own parent. */
  settleWaitingParent(runId: string | undefined): void {
    for (let id = runId; id;) {
      const run = this.store.getState().runs.get(id);
      if (run?.status !== 'pausing') return;
      const live = this.liveChildren(id);
      if (live.length === 0 || !live.every((c) => c.status === 'paused')) return;
      setRunStatus(this.store, id, 'paused');
      id = run.parentRunId;
    }
  }

  /** Pauses a subtree; returns how many runs it paused (0: all had ended or were stopping). */
  pause(runId: string): number {
    const s = this.store.getState();
    const targets = liveSubtree(s, runId).filter((r) => this.pauseOne(r.id));
    // Deepest first, so a parent sees its children's final state.
    for (const r of targets.slice().reverse()) this.settleWaitingParent(r.id);
    return targets.length;
  }

  resume(runId: string): number {
    const s = this.store.getState();
    const targets = liveSubtree(s, runId);
    for (const r of targets) {
      const h = this.handles.get(r.id);
      if (!h) continue;
      h.gate.resume();
      const cur = this.store.getState().runs.get(r.id);
      const asking = (h.asking ?? 0) > 0;
      if (cur?.status === 'paused' || cur?.status === 'pausing')
        setRunStatus(this.store, r.id, cur.startedAt === undefined ? 'queued' : asking ? 'awaiting_approval' : 'running');
      if (cur?.startedAt !== undefined && !asking) h.timer?.resume();
    }
    return targets.length;
  }

  /** The lane's queue positions onto the queued runs (cleared for runs no longer queued),
   * in one store update, none when nothing changed. */
  applyQueuePositions(positions: Map<string, number>): void {
    this.store.setState((s) => {
      const changed: [string, Run][] = [];
      for (const [id, pos] of positions) {
        const r = s.runs.get(id);
        if (r && r.queuePosition !== pos) changed.push([id, { ...r, queuePosition: pos }]);
      }
      for (const id of this.queuedOnce) {
        const r = s.runs.get(id);
        if (r && r.queuePosition !== undefined && !positions.has(id)) changed.push([id, { ...r, queuePosition: undefined }]);
      }
      this.queuedOnce = new Set(positions.keys());
      return changed.length > 0 ? { runs: s.runs.withMany(changed) } : s;
    });
  }
}
