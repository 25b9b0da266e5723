// The shapes the supervisor works with: a run's handle, what it needs from the runtime,
// the description of a child to run, and SupervisorCore: what its helpers (subagents.ts,
// delegation/) may call, so they depend on this file and not on supervisor.ts.
import type { AgentConfig, ArborConfig, ProviderConfig, RiskProfile, RuntimeProfile } from '../config/types.js';
import type { ModelMessage } from '../model/messages.js';
import type { KilledBy, RunFailure } from '../model/run.js';
import type { ModelProvider } from '../providers/types.js';
import type { ChildOutcome } from '../tools/childServices.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ExtraToolServices, ToolServices } from '../tools/services.js';
import type { ActionTracker, ToolCaller } from '../tools/types.js';
import type { ConcurrencyLane } from './concurrencyLane.js';
import type { ExecutionBudget } from './executionBudget.js';
import type { FanoutBroker } from './fanout.js';
import type { LoopHooks } from './loopSpec.js';
import type { PausableTimer } from './pausableTimer.js';
import type { PauseGate } from './pauseGate.js';
import type { QuotaWaiter } from './quotaPause.js';
import type { ApprovalBroker } from './approvals.js';
import type { LedgerBook } from './ledger/book.js';
import type { WorktreeQueue } from './worktrees/queue.js';
import type { RuntimeStore } from './store.js';
import type { Run, RunKind } from './types.js';

/** Why a run stopped, so the right terminal status is recorded. */
export type StopReason = 'killed' | 'cancelled' | 'timed_out';

export interface RunHandle {
  runId: string;
  controller: AbortController;
  gate: PauseGate;
  steering: string[];
  /** Steering is no longer read (an external ACP child took its last prompt): a steer is
   * refused rather than queued where nothing reads it. */
  steeringClosed?: boolean;
  timer?: PausableTimer;
  /** Set when the run is told to stop, before its controller aborts. */
  stopReason?: StopReason;
  /** Who killed it, as its error says (set with stopReason 'killed'). */
  killedBy?: KilledBy;
  /** Stopped by a per-child limit (childBudget.ts): it ends failed with this error. */
  failure?: RunFailure;
  /** Holds a lane slot (children only). */
  laned: boolean;
  /** Unlinks the run from its parent's cancellation. */
  detach?: () => void;
  /** Asks of this run waiting for the operator (its timer stands still while > 0). */
  asking?: number;
}

export interface ResolvedProvider {
  provider: ModelProvider;
  config: ProviderConfig;
  label: string;
}

/** A line in the chat transcript (and the session file), e.g. a background task ending. */
export type PostNotice = (level: 'info' | 'warn' | 'error', text: string) => void;

export interface SupervisorDeps {
  store: RuntimeStore;
  config: ArborConfig;
  cwd: string;
  approvals: ApprovalBroker;
  providerFor(agent: AgentConfig): ResolvedProvider;
  /** Every tool before policy filtering (builtins, spawn_subagent, delegate). */
  baseTools: ToolRegistry;
  filterTools(registry: ToolRegistry, risk: RiskProfile): ToolRegistry;
  /** An agent's own unfiltered tools where they differ from baseTools (its MCP servers'
   * tools added); absent: baseTools. */
  toolsFor?(alias: string): ToolRegistry;
  /** Whether an agent may hold a tool at all (an MCP tool of a server its mcp_servers
   * leave out may not); absent: every tool. */
  agentSeesTool?(alias: string, toolName: string): boolean;
  hooks: LoopHooks;
  /** `tools`: the tools a child was offered (its run_started record). */
  trace(event: 'run_started' | 'run_finished' | 'run_failed', run: Run, tools?: string[]): void;
  /** A child reached a terminal state (session log snapshot, background notices). */
  onChildEnded?(run: Run): void;
  /** A line in the chat transcript (and the session file), e.g. a background task ending;
   * absent: the line goes to the store only. */
  notice?: PostNotice;
  /** Holds runs while their provider's rate or quota limit lasts. */
  quota?: QuotaWaiter;
  /** Asks the operator before a large fan-out ([delegation] confirm_fanout_over). */
  fanout?: FanoutBroker;
  /** More services for tools (the delegate service), built per tree budget; `notice` posts a
   * line in the chat (and the session file) through the runtime's notice. */
  extraServices?(supervisor: SupervisorCore, budget: ExecutionBudget | undefined, notice: PostNotice): ExtraToolServices;
  /** Project context (AGENTS.md) for the system prompt of agents that take it. */
  projectContext?: string;
  /** The observed-effects ledger; absent: nothing is recorded (a benchmark's baseline). */
  ledger?: LedgerBook;
  /** Worktrees of isolated children and the merge queue (issue #23); absent: no isolation. */
  worktrees?: WorktreeQueue;
}

export interface ChildSpec {
  kind: Exclude<RunKind, 'root'>;
  parentRunId: string;
  /** The tool call that created the child; absent for a steered continuation. */
  parentToolCallId?: string;
  alias: string;
  task: string;
  sessionKeyPrefix: 'subagent' | 'delegate' | 'background';
  model: string;
  /** Linked to the parent's cancellation (foreground). Background children pass none. */
  parentSignal?: AbortSignal;
  /** Active-time limit in seconds (paused time does not count); 0/undefined = none. */
  timeoutSecs?: number;
  /** Background task id (kind 'background'). */
  taskId?: string;
  /** The names of the tools the child is offered (its trace record lists them). */
  tools?: string[];
  /** The call asked for its own git worktree (it can only tighten the configured isolation). */
  isolation?: 'worktree';
  /** Runs the child's work; gets the handle once the child holds a lane slot. */
  execute(handle: RunHandle, run: Run): Promise<string>;
}

/** Everything needed to run one turn of a run's loop; a child's is kept after it ends so
 * it can be steered into a new turn of the same history. */
export interface LoopContext {
  run: Run;
  handle: RunHandle;
  agent: AgentConfig;
  resolved: ResolvedProvider;
  caller: ToolCaller;
  tools: ToolRegistry;
  history: ModelMessage[];
  budget?: { budget: ExecutionBudget; role: 'root' | 'child' };
  tracker: ActionTracker;
  isChild: boolean;
  maxIterations: number;
  /** Overrides the services tools get (default: Supervisor.servicesFor the tree budget). */
  services?: ToolServices;
}

/** A child's end as its creator sees it, with the run record. */
export type ChildResult = ChildOutcome & { run: Run };

/** What the supervisor's helpers (spawn_subagent's side, the delegation service) may use.
 * Implemented by Supervisor; its maps of handles and loop contexts stay private to it. */
export interface SupervisorCore {
  readonly store: RuntimeStore;
  readonly config: ArborConfig;
  /** The session's working directory (path checks, an external agent's process). */
  readonly cwd: string;
  /** Who decides a child's asks (an external agent's permission requests go here too). */
  readonly approvals: ApprovalBroker;
  /** The agent's provider with its own model (one per provider and model). */
  providerFor(agent: AgentConfig): ResolvedProvider;
  /** Whether an agent may hold a tool at all (an MCP tool of a server it leaves out may not). */
  agentSeesTool(alias: string, toolName: string): boolean;
  /** A caller's own tools: its agent's (MCP tools added), its profile's filter, its ceilings. */
  ownTools(caller: ToolCaller): ToolRegistry;
  /** The global concurrency lane (a caller blocked on a fan-out gives its slot up). */
  readonly lane: ConcurrencyLane;
  agent(alias: string): AgentConfig;
  riskProfile(name: string): RiskProfile | undefined;
  runtimeProfile(name: string): RuntimeProfile;
  registryOf(runId: string, caller: ToolCaller): ToolRegistry;
  liveChildCount(runId: string): number;
  mayHaveLiveChildren(runId: string, atLeast: number): boolean;
  spawnRefusal(parentRunId: string): string | undefined;
  /** Why a child that needs its own worktree cannot have one, checked before its run exists
   * (the literal refusal the calling tool returns). Undefined (not a promise) when the child
   * needs no worktree, so a caller checks its spawn gates and creates the run with no yield
   * in between; after awaiting a promise the gates must be checked again. */
  isolationRefusal(spec: Pick<ChildSpec, 'alias' | 'isolation' | 'parentRunId'>): Promise<string | undefined> | undefined;
  runChild(spec: ChildSpec): Promise<ChildResult>;
  recordUserItem(runId: string, text: string): void;
  /** Where a run works and the caller its paths are checked as: its worktree and the caller
   * mapped into it (fenced, the original checkout forbidden) when it is isolated or inherits
   * an isolated caller's tree; else the session's cwd and `caller` as given. */
  placeOf(runId: string, caller: ToolCaller): { cwd: string; caller: ToolCaller };
  loopFor(ctx: LoopContext): Promise<string>;
  /** The kept loop context of a finished child that may still be steered, else undefined. */
  steerableContext(runId: string): LoopContext | undefined;
  stop(runId: string, reason: StopReason): number;
}
