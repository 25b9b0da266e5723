// The supervisor owns runs: it creates them (and only it does), enforces depth, fan-out
// and concurrency limits, queues what the lane cannot start yet, propagates kill and pause
// down a subtree and records outcomes. spawn_subagent and delegate are thin tools over it.
import { randomUUID } from 'node:crypto';
import type { AgentConfig, ArborConfig, RiskProfile, RuntimeProfile } from '../config/types.js';
import type { ApprovalBroker } from './approvals.js';
import type { ChildOutcome } from '../tools/childServices.js';
import { capToCeilings } from '../tools/authority.js';
import { withProjectContext } from '../config/projectContext.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolCallOrigin, ToolCaller, ToolServices } from '../tools/types.js';
import { ChildBudgets } from './childBudget.js';
import { ChildRuns } from './childRuns.js';
import { RunHandles } from './runHandles.js';
import { SpawnGate } from './spawnGate.js';
import { ConcurrencyLane } from './concurrencyLane.js';
import { fanoutReviewFor } from './fanout.js';
import { LoopContexts } from './loopContexts.js';
import type { ExecutionBudget } from './executionBudget.js';
import { runLoop } from './loop.js';
import type { LoopHooks } from './loopSpec.js';
import { RunControl } from './runControl.js';
import { applyAskWait } from './askWait.js';
import { narrowToAgentTools } from '../tools/agentTools.js';
import { RunPlaces } from './worktrees/supervise.js';
import { addRun, appendItem, type RuntimeStore } from './store.js';
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
import { isTerminal, type Run } from './types.js';
import { freshRunCounters, type KilledBy } from '../model/run.js';

export class Supervisor implements SupervisorCore {
  /** Live runs' handles, removed when each run ends. */
  private readonly handles = new RunHandles();
  /** Per child run: its loop context, kept after it ends while it can be steered. */
  private readonly contexts = new LoopContexts(() => this.deps.config.delegation.archive_after_minutes * 60_000);
  /** Each live root turn's registry (its MCP tools were fixed when the turn began). */
  private readonly rootTools = new Map<string, ToolRegistry>();
  readonly lane: ConcurrencyLane;
  /** The spawn pause and the per-parent child limit (spawnGate.ts). */
  private readonly spawnGate: SpawnGate;
  /** Per-child limits (childBudget.ts): fed by every model call's usage through loopHooks. */
  readonly budgets = new ChildBudgets({
    run: (id) => this.store.getState().runs.get(id),
    exhausted: (id, failure) => this.control.stopForBudget(id, failure),
  });
  private readonly loopHooks: LoopHooks;
  /** Stop, pause and resume over subtrees (runControl.ts), on this supervisor's handles. */
  private readonly control: RunControl;
  /** Where each run works: the checkout, its own worktree or an ancestor's (issue #23). */
  readonly places: RunPlaces;
  /** Each child from its announcement to its outcome (childRuns.ts). */
  private readonly children: ChildRuns;

  constructor(private readonly deps: SupervisorDeps) {
    this.control = new RunControl(deps.store, this.handles.live);
    this.places = new RunPlaces(deps.worktrees, deps.config, deps.cwd);
    this.spawnGate = new SpawnGate(deps.store, deps.config, this.handles, (runId) => this.control.liveChildCount(runId));
    this.lane = new ConcurrencyLane(deps.config.delegation.max_concurrent, (positions) => this.control.applyQueuePositions(positions));
    this.children = new ChildRuns({
      store: deps.store,
      config: deps.config,
      handles: this.handles,
      budgets: this.budgets,
      lane: this.lane,
      places: this.places,
      control: this.control,
      contexts: this.contexts,
      ledger: deps.ledger,
      trace: deps.trace,
      onChildEnded: deps.onChildEnded,
      notice: deps.notice,
      createRun: (fields) => this.createRun(fields),
      stop: (runId, reason) => this.stop(runId, reason),
    });
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
    return this.handles.register(runId, () => this.control.onHeld(runId), parentSignal);
  }

  /** Live (non-terminal) children of a run. */
  liveChildren(runId: string): Run[] {
    return this.control.liveChildren(runId);
  }

  liveChildCount(runId: string): number {
    return this.control.liveChildCount(runId);
  }

  /** False when the run certainly has fewer than `atLeast` live children (runHandles.ts). */
  mayHaveLiveChildren(runId: string, atLeast: number): boolean {
    return this.handles.mayHaveLiveChildren(runId, atLeast);
  }

  /** Refusal shared by every tool that creates runs, or undefined. */
  spawnRefusal(parentRunId: string): string | undefined {
    return this.spawnGate.refusal(parentRunId);
  }

  isolationRefusal(spec: Pick<ChildSpec, 'alias' | 'isolation' | 'parentRunId'>): Promise<string | undefined> | undefined {
    return this.places.refusal(spec);
  }

  /** Announces the child (queued, visible at once), waits for a lane slot, runs it and
   * records its outcome. Never throws: the outcome says what happened. */
  runChild(spec: ChildSpec): Promise<ChildResult> {
    return this.children.run(spec);
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

  /** Ids of runs that hold a handle (live, or still unwinding). */
  handledRunIds(): string[] {
    return this.handles.ids();
  }

  /** Whether any run still holds a handle. */
  get hasLiveHandles(): boolean {
    return this.handles.size > 0;
  }

  /** A root turn has ended: its handle goes (children drop theirs in endChild). */
  releaseHandle(runId: string): void {
    this.handles.drop(runId);
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
    return this.spawnGate.isPaused;
  }

  setSpawnPaused(paused: boolean): void {
    this.spawnGate.setPaused(paused);
  }

  /** Stops a run and every descendant. Returns the descendants that were live.
   * `killedBy`: who a killed run's error says killed it; the operator by default. */
  stop(runId: string, reason: StopReason, killedBy?: KilledBy): number {
    return this.control.stop(runId, reason, killedBy);
  }

  /** Stops every live run (each stop cascades to its subtree): the session is ending.
   * Returns how many runs were stopped. */
  stopAll(reason: StopReason): number {
    return this.control.stopAll(reason);
  }

  kill(runId: string, killedBy?: KilledBy): { killed: boolean; descendants: number } {
    return this.control.kill(runId, killedBy);
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
