// The supervisor owns runs: it creates them (and only it does), enforces depth, fan-out
// and concurrency limits, queues what the lane cannot start yet, propagates kill and pause
// down a subtree and records outcomes. spawn_subagent and delegate are thin tools over it.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { AgentConfig, ArborConfig, RiskProfile, RuntimeProfile } from '../config/types.js';
import type { ApprovalBroker } from './approvals.js';
import type { ChildOutcome } from '../tools/childServices.js';
import { capToCeilings } from '../tools/authority.js';
import { withProjectContext } from '../config/projectContext.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolCallOrigin, ToolCaller, ToolServices } from '../tools/types.js';
import { ChildBudgets, configuredLimits } from './childBudget.js';
import { ConcurrencyLane } from './concurrencyLane.js';
import { fanoutReviewFor } from './fanout.js';
import { LoopContexts } from './loopContexts.js';
import type { ExecutionBudget } from './executionBudget.js';
import { RunAbortedError, describeLoopError, runLoop, type LoopHooks } from './loop.js';
import { PauseGate } from './pauseGate.js';
import { childObserved } from '../model/ledger.js';
import { RunControl } from './runControl.js';
import { applyAskWait } from './askWait.js';
import { narrowToAgentTools } from '../tools/agentTools.js';
import { RunPlaces } from './worktrees/supervise.js';
import { addRun, appendItem, patchRun, setRunStatus, type RuntimeStore } from './store.js';
import { buildSubagentCaller, continueFinished, runSubagent, type SubagentOverrides } from './subagents.js';
import type {
  ChildResult,
  ChildSpec,
  LoopContext,
  ResolvedProvider,
  RunHandle,
  StopReason,
  SupervisorCore,
  SupervisorDeps,
} from './supervisorTypes.js';
import { isTerminal, type Run, type TerminalStatus } from './types.js';
import { freshRunCounters, runError, type FixedRunErrorCode, type KilledBy, type RunFailure } from '../model/run.js';

export const SPAWN_PAUSED_REFUSAL =
  'Delegation spawning is paused. Clear the pause with p in /agents or /subagents resume before retrying.';
export const childrenLimitRefusal = (limit: number, live: number) =>
  `spawn refused: this run already has ${live} live children (max_children_per_agent = ${limit}). Wait for one to finish, or raise [delegation] max_children_per_agent in the config.`;

export class Supervisor implements SupervisorCore {
  /** Live runs' handles, removed when each run ends. */
  private readonly handles = new Map<string, RunHandle>();
  /** Per child run: its loop context, kept after it ends while it can be steered. */
  private readonly contexts = new LoopContexts(() => this.deps.config.delegation.archive_after_minutes * 60_000);
  /** Each live root turn's registry (its MCP tools were fixed when the turn began). */
  private readonly rootTools = new Map<string, ToolRegistry>();
  readonly lane: ConcurrencyLane;
  private spawnPaused = false;
  /** Per-child limits (childBudget.ts): fed by every model call's usage through loopHooks. */
  readonly budgets = new ChildBudgets({
    run: (id) => this.store.getState().runs.get(id),
    exhausted: (id, failure) => this.stopForBudget(id, failure),
  });
  private readonly loopHooks: LoopHooks;
  /** Stop, pause and resume over subtrees (runControl.ts), on this supervisor's handles. */
  private readonly control: RunControl;
  /** Where each run works: the checkout, its own worktree or an ancestor's (issue #23). */
  readonly places: RunPlaces;

  constructor(private readonly deps: SupervisorDeps) {
    this.control = new RunControl(deps.store, this.handles);
    this.places = new RunPlaces(deps.worktrees, deps.config, deps.cwd);
    this.lane = new ConcurrencyLane(deps.config.delegation.max_concurrent, (positions) => this.control.applyQueuePositions(positions));
    this.loopHooks = {
      ...deps.hooks,
      onUsage: (runId, tokensIn, tokensOut, costUsd) => {
        deps.hooks.onUsage?.(runId, tokensIn, tokensOut, costUsd);
        this.budgets.recordUsage(runId, tokensIn + tokensOut, costUsd);
      },
    };
  }

  get store(): RuntimeStore {
    return this.deps.store;
  }

  get config(): ArborConfig {
    return this.deps.config;
  }

  get cwd(): string {
    return this.deps.cwd;
  }

  get approvals(): ApprovalBroker {
    return this.deps.approvals;
  }

  providerFor(agent: AgentConfig): ResolvedProvider {
    return this.deps.providerFor(agent);
  }

  agentSeesTool(alias: string, toolName: string): boolean {
    return this.deps.agentSeesTool?.(alias, toolName) ?? true;
  }

  ownTools(caller: ToolCaller): ToolRegistry {
    const base = this.deps.toolsFor?.(caller.alias) ?? this.deps.baseTools;
    return capToCeilings(this.deps.filterTools(base, caller.risk), caller);
  }

  /** Through the runtime's notice when it has one, else straight into the store. */
  private readonly postNotice = (level: 'info' | 'warn' | 'error', text: string): void => {
    if (this.deps.notice) this.deps.notice(level, text);
    else appendItem(this.deps.store, undefined, { id: randomUUID(), kind: 'notice', level, text, at: Date.now() });
  };

  // ---- identity ----

  agent(alias: string): AgentConfig {
    const agent = this.deps.config.agents[alias];
    if (!agent) throw new Error(`unknown agent alias '${alias}' (known: ${Object.keys(this.deps.config.agents).join(', ')})`);
    return agent;
  }

  riskProfile(name: string): RiskProfile | undefined {
    return this.deps.config.risk_profiles[name];
  }

  runtimeProfile(name: string): RuntimeProfile {
    return this.deps.config.runtime_profiles[name] ?? this.deps.config.runtime_profiles.default;
  }

  rootCaller(alias: string): ToolCaller {
    const agent = this.agent(alias);
    const risk = this.riskProfile(agent.risk_profile);
    if (!risk) throw new Error(`agent '${alias}': risk_profile '${agent.risk_profile}' is not configured`);
    const runtime = this.runtimeProfile(agent.runtime_profile);
    return {
      alias,
      risk,
      runtime,
      isSubagent: false,
      delegationDepth: 0,
      delegationDepthLimit: runtime.max_delegation_depth,
      callerChain: [alias],
    };
  }

  /** The registry a run's loop has: a child's as it was built (so a subagent of a delegate
   * child, or a child of an independent hop, is capped by what that run really has); a
   * root's is its profile's filter of the base tools. */
  registryOf(runId: string, caller: ToolCaller): ToolRegistry {
    const recorded = this.contexts.get(runId)?.tools ?? this.rootTools.get(runId);
    if (recorded) return recorded;
    return narrowToAgentTools(this.ownTools(caller), this.deps.config.agents[caller.alias]?.tools);
  }

  // ---- run creation ----

  /** Called synchronously after each run is announced (the runaway guard checks here, so
   * it trips before the next child of a parallel batch is created). */
  /** Children holding a handle, by parent run: an upper bound of each run's live children. */
  private readonly handlesByParent = new Map<string, number>();

  private readonly runCreatedListeners = new Set<(run: Run) => void>();

  /** Subscribes to run creation; returns the unsubscribe. */
  onRunCreated(listener: (run: Run) => void): () => void {
    this.runCreatedListeners.add(listener);
    return () => this.runCreatedListeners.delete(listener);
  }

  createRun(fields: Pick<Run, 'kind' | 'alias' | 'task' | 'model'> & Partial<Run>): Run {
    const id = fields.id ?? randomUUID();
    const run: Run = {
      shortId: id.slice(0, 8),
      rootRunId: fields.rootRunId ?? id,
      depth: 0,
      status: 'queued',
      sessionKey: `${fields.kind === 'root' ? 'session' : fields.kind}-${id}`,
      createdAt: Date.now(),
      ...freshRunCounters(),
      ...fields,
      id,
    };
    addRun(this.store, run);
    // The store gave a child its session number.
    const created = this.store.getState().runs.get(id) ?? run;
    for (const listener of this.runCreatedListeners) listener(created);
    return created;
  }

  registerHandle(runId: string, parentSignal?: AbortSignal): RunHandle {
    const controller = new AbortController();
    // Each live child listens on its parent's signal: a fan-out of more than ten is normal
    // here, and Node's leak warning would otherwise print over the chat screen.
    setMaxListeners(0, controller.signal);
    const handle: RunHandle = { runId, controller, gate: new PauseGate(() => this.control.onHeld(runId)), steering: [], laned: false };
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
    this.handles.set(runId, handle);
    return handle;
  }

  /** Live (non-terminal) children of a run. */
  liveChildren(runId: string): Run[] {
    return this.control.liveChildren(runId);
  }

  liveChildCount(runId: string): number {
    return this.control.liveChildCount(runId);
  }

  /** False when the run certainly has fewer than `atLeast` live children: every live child
   * holds a handle until it ends, so the handle count bounds the live count from above and
   * the exact count (a walk over the children) is needed only near a limit. */
  mayHaveLiveChildren(runId: string, atLeast: number): boolean {
    return (this.handlesByParent.get(runId) ?? 0) >= atLeast;
  }

  /** Refusal shared by every tool that creates runs, or undefined. */
  spawnRefusal(parentRunId: string): string | undefined {
    if (this.spawnPaused) return SPAWN_PAUSED_REFUSAL;
    const limit = this.deps.config.delegation.max_children_per_agent;
    if (!this.mayHaveLiveChildren(parentRunId, limit)) return undefined;
    const live = this.control.liveChildCount(parentRunId);
    if (live >= limit) return childrenLimitRefusal(limit, live);
    return undefined;
  }

  isolationRefusal(spec: Pick<ChildSpec, 'alias' | 'isolation' | 'parentRunId'>): Promise<string | undefined> | undefined {
    return this.places.refusal(spec);
  }

  /** Announces the child (queued, visible at once), waits for a lane slot, runs it and
   * records its outcome. Never throws: the outcome says what happened. */
  async runChild(spec: ChildSpec): Promise<ChildResult> {
    const parent = this.store.getState().runs.get(spec.parentRunId);
    // The handle exists before the run is announced, so a pause or kill issued the moment
    // the child appears (by the user or the runaway guard) reaches it.
    const id = randomUUID();
    const detached = spec.kind === 'background';
    const handle = this.registerHandle(id, spec.parentSignal);
    this.handlesByParent.set(spec.parentRunId, (this.handlesByParent.get(spec.parentRunId) ?? 0) + 1);
    const parentHandle = this.handles.get(spec.parentRunId);
    if (parentHandle?.gate.paused) handle.gate.pause();
    const limits = this.budgets.open(id, spec.parentRunId, configuredLimits(this.config.delegation, this.config.agents[spec.alias]));
    const run = this.createRun({
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
    if (handle.gate.paused && !detached) this.control.settleWaitingParent(spec.parentRunId);
    this.places.announced(spec, run);
    const work = this.executeChild(spec, run, handle).then((r) => this.places.ended(r, (text) => this.deps.notice?.('warn', text)));
    // A parent blocked on its child does not hold a lane slot meanwhile.
    const outcome = spec.parentSignal ? await this.lane.suspendWhile(spec.parentRunId, work) : await work;
    return outcome;
  }

  private async executeChild(spec: ChildSpec, run: Run, handle: RunHandle): Promise<ChildResult> {
    const refused = await this.places.prepare(spec, run);
    if (refused !== undefined) return this.endChild(run.id, handle, 'failed', '', refused);
    try {
      await this.lane.acquire(run.id, handle.controller.signal);
      handle.laned = true;
    } catch {
      return this.endChild(run.id, handle, handle.stopReason ?? 'cancelled', '', { code: 'stoppedWhileQueued' });
    }
    if (handle.controller.signal.aborted)
      return this.endChild(run.id, handle, handle.stopReason ?? 'cancelled', '', { code: 'stoppedBeforeStart' });
    const status = this.store.getState().runs.get(run.id)?.status;
    setRunStatus(this.store, run.id, status === 'paused' ? 'paused' : 'running', { queuePosition: undefined });
    patchRun(this.store, run.id, { startedAt: Date.now() });
    this.deps.trace('run_started', this.store.getState().runs.get(run.id)!, spec.tools);
    handle.timer = this.budgets.timer(run.id, spec.timeoutSecs, () => this.stop(run.id, 'timed_out'));
    if (handle.timer && !handle.gate.paused) handle.timer.start();
    try {
      const text = await spec.execute(handle, this.store.getState().runs.get(run.id)!);
      if (handle.controller.signal.aborted) return this.endChild(run.id, handle, handle.stopReason ?? 'cancelled', text, undefined);
      return this.endChild(run.id, handle, 'completed', text, undefined);
    } catch (err) {
      if (handle.controller.signal.aborted || err instanceof RunAbortedError) {
        return this.endChild(run.id, handle, handle.stopReason ?? 'cancelled', '', undefined);
      }
      const message = describeLoopError(err);
      return this.endChild(run.id, handle, 'failed', '', message);
    }
  }

  /** `error`: the failure's text, or the code of one the runtime words itself (RUN_ERROR_TEXT). */
  private endChild(
    runId: string,
    handle: RunHandle,
    status: TerminalStatus,
    text: string,
    error: string | { code: FixedRunErrorCode } | undefined,
  ): ChildResult {
    // Stopped by a per-child limit: a failure whose error names the limit (not a cancel).
    const budget = handle.failure !== undefined && status === 'cancelled' ? handle.failure : undefined;
    if (budget) status = 'failed';
    this.budgets.close(runId);
    handle.timer?.clear();
    handle.detach?.();
    this.lane.release(runId);
    handle.laned = false;
    const ended: RunFailure =
      budget ??
      (status === 'killed'
        ? runError(handle.killedBy ?? 'killedByOperator')
        : status === 'timed_out'
          ? runError('timedOut')
          : typeof error === 'object'
            ? runError(error.code)
            : status === 'cancelled' && error === undefined
              ? runError('turnStopped')
              : { error });
    const reasonText = ended.error;
    setRunStatus(this.store, runId, status, status === 'completed' ? { result: text } : ended);
    const run = this.store.getState().runs.get(runId)!;
    this.deps.trace(status === 'completed' ? 'run_finished' : 'run_failed', run);
    this.deps.onChildEnded?.(run);
    if (this.handles.delete(runId) && run.parentRunId !== undefined) this.dropParentCount(run.parentRunId);
    this.contexts.ended(runId);
    this.deps.ledger?.forget(runId);
    const observed = this.deps.ledger ? childObserved(this.store.getState().runs, this.store.getState().runOrder, runId) : undefined;
    return { status: status as ChildOutcome['status'], text, error: status === 'completed' ? undefined : reasonText, run, observed };
  }

  // ---- the subagent service (spawn_subagent): see subagents.ts ----

  buildSubagentCaller(parent: ToolCaller, overrides: SubagentOverrides = {}): ToolCaller {
    return buildSubagentCaller(this, parent, overrides);
  }

  runSubagent(
    ctx: ToolCallOrigin,
    prompt: string,
    budget: ExecutionBudget | undefined,
    overrides?: SubagentOverrides,
    isolation?: 'worktree',
  ): Promise<ChildOutcome> {
    return runSubagent(this, ctx, prompt, budget, overrides, isolation);
  }

  /** A child's task (or a steering message) as the first item of its own transcript,
   * recorded like every other item so the session file keeps it. */
  recordUserItem(runId: string, text: string): void {
    const item = appendItem(this.store, runId, { id: randomUUID(), kind: 'user', text, at: Date.now() });
    this.deps.hooks.onItemFinal?.(runId, item);
  }

  placeOf(runId: string, caller: ToolCaller): { cwd: string; caller: ToolCaller } {
    return { cwd: this.places.cwdOf(runId), caller: this.places.callerOf(runId, caller) };
  }

  /** Runs the agent loop for a run with the supervisor's services. */
  async loopFor(ctx: LoopContext): Promise<string> {
    // Every run's tools pass its agent's own allow-list here, whichever path built them.
    const opts: LoopContext = { ...ctx, tools: narrowToAgentTools(ctx.tools, ctx.agent.tools) };
    // An isolated run (or one inheriting an isolated caller's tree) works in its worktree.
    const { cwd, caller } = this.placeOf(opts.run.id, opts.caller);
    const { handle } = opts;
    if (opts.isChild) this.contexts.set(opts);
    else this.rootTools.set(opts.run.id, opts.tools);
    const result = await runLoop({
      runId: opts.run.id,
      store: this.store,
      config: this.deps.config,
      provider: opts.resolved.provider,
      providerConfig: opts.resolved.config,
      // Every agent but one whose definition says `context = false`: the root, its
      // spawn_subagent children (same definition, same context) and delegates.
      systemPrompt: withProjectContext(opts.agent.system_prompt, opts.agent.context === false ? undefined : this.deps.projectContext),
      history: opts.history,
      tools: opts.tools,
      caller,
      signal: handle.controller.signal,
      gate: handle.gate,
      budget: opts.budget,
      approvals: this.deps.approvals,
      isChild: opts.isChild,
      tracker: opts.tracker,
      cwd,
      services: opts.services ?? this.servicesFor(opts.budget?.budget),
      takeSteering: () => handle.steering.splice(0),
      hasSteering: () => handle.steering.length > 0,
      hooks: this.loopHooks,
      maxIterations: opts.maxIterations,
      quota: this.deps.quota,
      reviewFanout: fanoutReviewFor(this.deps.fanout, opts.run, opts.caller, opts.tools, handle),
      observer: this.deps.ledger?.observer(opts.run.id, cwd, opts.maxIterations > 1 && opts.tools.names().length > 0),
    });
    return result.text;
  }

  /** Services handed to tools running inside a tree that shares `budget`: exactly
   * ToolServices, never the supervisor itself. */
  servicesFor(budget: ExecutionBudget | undefined): ToolServices {
    return {
      spawnRefusal: (ctx) => this.spawnRefusal(ctx.runId),
      runSubagent: (ctx, prompt, opts) => this.runSubagent(ctx, prompt, budget, undefined, opts?.isolation),
      ...(this.deps.extraServices?.(this, budget, this.postNotice) ?? {}),
    };
  }

  // ---- handles and kept contexts ----

  private dropParentCount(parentRunId: string): void {
    const n = (this.handlesByParent.get(parentRunId) ?? 0) - 1;
    if (n > 0) this.handlesByParent.set(parentRunId, n);
    else this.handlesByParent.delete(parentRunId);
  }

  /** Ids of runs that hold a handle (live, or still unwinding). */
  handledRunIds(): string[] {
    return [...this.handles.keys()];
  }

  /** Whether any run still holds a handle. */
  get hasLiveHandles(): boolean {
    return this.handles.size > 0;
  }

  /** A root turn has ended: its handle goes (children drop theirs in endChild). */
  releaseHandle(runId: string): void {
    this.handles.delete(runId);
    this.rootTools.delete(runId);
  }

  steerableContext(runId: string): LoopContext | undefined {
    return this.contexts.steerable(runId);
  }

  /** How many loop contexts are kept (live children and steerable finished ones). */
  get keptContextCount(): number {
    return this.contexts.size;
  }

  // ---- controls ----

  get isSpawnPaused(): boolean {
    return this.spawnPaused;
  }

  setSpawnPaused(paused: boolean): void {
    this.spawnPaused = paused;
    this.store.setState((s) => ({ controls: { ...s.controls, spawnPaused: paused } }));
  }

  /** Stops a run and every descendant. Returns the descendants that were live.
   * `killedBy`: who a killed run's error says killed it; the operator by default. */
  stop(runId: string, reason: StopReason, killedBy?: KilledBy): number {
    return this.control.stop(runId, reason, killedBy);
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

  /** A per-child limit was reached: the run and its subtree stop; the run ends failed with
   * `failure` (endChild), its descendants cancelled. */
  private stopForBudget(runId: string, failure: RunFailure): void {
    const h = this.handles.get(runId);
    const run = this.store.getState().runs.get(runId);
    if (!h || !run || isTerminal(run.status)) return;
    h.failure = failure;
    this.stop(runId, 'cancelled');
  }

  kill(runId: string, killedBy?: KilledBy): { killed: boolean; descendants: number } {
    const run = this.store.getState().runs.get(runId);
    if (!run || isTerminal(run.status)) return { killed: false, descendants: 0 };
    const descendants = this.stop(runId, 'killed', killedBy);
    return { killed: true, descendants };
  }

  pause(runId: string): number {
    return this.control.pause(runId);
  }

  resume(runId: string): number {
    return this.control.resume(runId);
  }

  /** The run's ask started or stopped waiting for the operator (runtime/approvals.ts). */
  setAsking(runId: string, waiting: boolean): void {
    applyAskWait(this.store, this.handles.get(runId), runId, waiting);
  }

  steer(runId: string, message: string): boolean {
    const h = this.handles.get(runId);
    const run = this.store.getState().runs.get(runId);
    if (!h || !run || isTerminal(run.status) || h.steeringClosed) return false;
    h.steering.push(message);
    return true;
  }

  continueFinished(runId: string, message: string): Promise<ChildResult | undefined> {
    return continueFinished(this, runId, message);
  }
}
