// One child from its announcement to its outcome: the handle first (so a pause or kill
// issued the moment the child appears reaches it), the run (queued, visible at once, born
// held under a paused parent), its place (a worktree when isolated), a lane slot, its
// budget's timer, its work, and its end (status, error, trace, session snapshot, the
// handle and budget released, its ledger's roll-up).
import { randomUUID } from 'node:crypto';
import type { ArborConfig } from '../config/types.js';
import { childObserved } from '../model/ledger.js';
import { runError, type FixedRunErrorCode, type RunFailure } from '../model/run.js';
import type { ChildOutcome } from '../tools/childServices.js';
import { configuredLimits, type ChildBudgets } from './childBudget.js';
import type { ConcurrencyLane } from './concurrencyLane.js';
import type { LedgerBook } from './ledger/book.js';
import { describeLoopError } from './loop.js';
import { RunAbortedError } from './loopSpec.js';
import type { LoopContexts } from './loopContexts.js';
import type { RunControl } from './runControl.js';
import type { RunHandles } from './runHandles.js';
import { patchRun, setRunStatus, type RuntimeStore } from './store.js';
import type { ChildResult, ChildSpec, RunHandle, StopReason, SupervisorDeps } from './supervisorTypes.js';
import type { Run, TerminalStatus } from './types.js';
import type { RunPlaces } from './worktrees/supervise.js';

export interface ChildRunsDeps extends Pick<SupervisorDeps, 'trace' | 'onChildEnded' | 'notice'> {
  store: RuntimeStore;
  config: ArborConfig;
  handles: RunHandles;
  budgets: ChildBudgets;
  lane: ConcurrencyLane;
  places: RunPlaces;
  control: Pick<RunControl, 'settleWaitingParent' | 'onHeld'>;
  contexts: Pick<LoopContexts, 'ended'>;
  ledger?: LedgerBook;
  createRun(fields: Pick<Run, 'kind' | 'alias' | 'task' | 'model'> & Partial<Run>): Run;
  stop(runId: string, reason: StopReason): number;
}

/** `error`: the failure's text, or the code of one the runtime words itself (RUN_ERROR_TEXT). */
type EndError = string | { code: FixedRunErrorCode } | undefined;

/** The error a child ended with, by how it ended. `budget`: a per-child limit stopped it. */
function endedWith(handle: RunHandle, status: TerminalStatus, error: EndError, budget: RunFailure | undefined): RunFailure {
  if (budget) return budget;
  if (status === 'killed') return runError(handle.killedBy ?? 'killedByOperator');
  if (status === 'timed_out') return runError('timedOut');
  if (typeof error === 'object') return runError(error.code);
  if (status === 'cancelled' && error === undefined) return runError('turnStopped');
  return { error };
}

export class ChildRuns {
  constructor(private readonly deps: ChildRunsDeps) {}

  /** Announces the child (queued, visible at once), waits for a lane slot, runs it and
   * records its outcome. Never throws: the outcome says what happened. */
  async run(spec: ChildSpec): Promise<ChildResult> {
    const { store, config, handles, places } = this.deps;
    const parent = store.getState().runs.get(spec.parentRunId);
    // The handle exists before the run is announced, so a pause or kill issued the moment
    // the child appears (by the user or the runaway guard) reaches it.
    const id = randomUUID();
    const detached = spec.kind === 'background';
    const handle = handles.register(id, () => this.deps.control.onHeld(id), spec.parentSignal);
    // A background child is the root of its own tree (no parentRunId): it is not one of the
    // caller's live children, and its end (which drops by parentRunId) would never take it off.
    if (!detached) handles.countChild(spec.parentRunId);
    if (handles.get(spec.parentRunId)?.gate.paused) handle.gate.pause();
    const limits = this.deps.budgets.open(id, spec.parentRunId, configuredLimits(config.delegation, config.agents[spec.alias]));
    const run = this.deps.createRun({
      id,
      status: handle.gate.paused ? 'paused' : 'queued',
      pausedAt: handle.gate.paused ? Date.now() : undefined,
      kind: spec.kind,
      alias: spec.alias,
      task: spec.task,
      model: spec.model,
      // A background run is detached from the launching turn: the root of its own tree, so
      // stopping the turn (which walks parentRunId) never reaches it. The tool call still
      // links it to the card that launched it.
      parentRunId: detached ? undefined : spec.parentRunId,
      parentToolCallId: spec.parentToolCallId,
      rootRunId: detached ? id : (parent?.rootRunId ?? spec.parentRunId),
      depth: detached ? 0 : (parent?.depth ?? 0) + 1,
      sessionKey: `${spec.sessionKeyPrefix}-${randomUUID()}`,
      taskId: spec.taskId,
      limits: Object.keys(limits).length > 0 ? limits : undefined,
    });
    // Born held under a pausing parent: that parent may now be waiting only on held children.
    if (handle.gate.paused && !detached) this.deps.control.settleWaitingParent(spec.parentRunId);
    places.announced(spec, run);
    const work = this.execute(spec, run, handle).then((r) => places.ended(r, (text) => this.deps.notice?.('warn', text)));
    // A parent blocked on its child does not hold a lane slot meanwhile.
    const outcome = spec.parentSignal ? await this.deps.lane.suspendWhile(spec.parentRunId, work) : await work;
    return outcome;
  }

  private async execute(spec: ChildSpec, run: Run, handle: RunHandle): Promise<ChildResult> {
    const { store } = this.deps;
    const refused = await this.deps.places.prepare(spec, run);
    if (refused !== undefined) return this.end(run.id, handle, 'failed', '', refused);
    try {
      await this.deps.lane.acquire(run.id, handle.controller.signal);
      handle.laned = true;
    } catch {
      return this.end(run.id, handle, handle.stopReason ?? 'cancelled', '', { code: 'stoppedWhileQueued' });
    }
    if (handle.controller.signal.aborted)
      return this.end(run.id, handle, handle.stopReason ?? 'cancelled', '', { code: 'stoppedBeforeStart' });
    const status = store.getState().runs.get(run.id)?.status;
    setRunStatus(store, run.id, status === 'paused' ? 'paused' : 'running', { queuePosition: undefined });
    patchRun(store, run.id, { startedAt: Date.now() });
    this.deps.trace('run_started', store.getState().runs.get(run.id)!, spec.tools);
    handle.timer = this.deps.budgets.timer(run.id, spec.timeoutSecs, () => this.deps.stop(run.id, 'timed_out'));
    if (handle.timer && !handle.gate.paused) handle.timer.start();
    try {
      const text = await spec.execute(handle, store.getState().runs.get(run.id)!);
      if (handle.controller.signal.aborted) return this.end(run.id, handle, handle.stopReason ?? 'cancelled', text, undefined);
      return this.end(run.id, handle, 'completed', text, undefined);
    } catch (err) {
      if (handle.controller.signal.aborted || err instanceof RunAbortedError) {
        return this.end(run.id, handle, handle.stopReason ?? 'cancelled', '', undefined);
      }
      const message = describeLoopError(err);
      return this.end(run.id, handle, 'failed', '', message);
    }
  }

  private end(runId: string, handle: RunHandle, status: TerminalStatus, text: string, error: EndError): ChildResult {
    const { store, ledger } = this.deps;
    // Stopped by a per-child limit: a failure whose error names the limit (not a cancel).
    const budget = handle.failure !== undefined && status === 'cancelled' ? handle.failure : undefined;
    if (budget) status = 'failed';
    this.deps.budgets.close(runId);
    handle.timer?.clear();
    handle.detach?.();
    this.deps.lane.release(runId);
    handle.laned = false;
    const ended = endedWith(handle, status, error, budget);
    setRunStatus(store, runId, status, status === 'completed' ? { result: text } : ended);
    const run = store.getState().runs.get(runId)!;
    this.deps.trace(status === 'completed' ? 'run_finished' : 'run_failed', run);
    this.deps.onChildEnded?.(run);
    this.deps.handles.drop(runId, run.parentRunId);
    this.deps.contexts.ended(runId);
    ledger?.forget(runId);
    const observed = ledger ? childObserved(store.getState().runs, store.getState().runOrder, runId) : undefined;
    return { status: status as ChildOutcome['status'], text, error: status === 'completed' ? undefined : ended.error, run, observed };
  }
}
