// The shapes the supervisor works with: a run's handle, what it needs from the runtime,
// and the description of a child to run.
import type { AgentConfig, ArborConfig, ProviderConfig, RiskProfile } from '../config/types.js';
import type { ModelProvider } from '../providers/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ExecutionBudget } from './executionBudget.js';
import type { LoopHooks } from './loop.js';
import type { PausableTimer } from './pausableTimer.js';
import type { PauseGate } from './pauseGate.js';
import type { ApprovalBroker } from './approvals.js';
import type { RuntimeStore } from './store.js';
import type { Supervisor } from './supervisor.js';
import type { Run, RunKind } from './types.js';

/** Why a run stopped, so the right terminal status is recorded. */
export type StopReason = 'killed' | 'cancelled' | 'timed_out';

export interface RunHandle {
  runId: string;
  controller: AbortController;
  gate: PauseGate;
  steering: string[];
  timer?: PausableTimer;
  /** Set when the run is told to stop, before its controller aborts. */
  stopReason?: StopReason;
  /** Who killed it, as its error says (set with stopReason 'killed'). */
  killText?: string;
  /** Holds a lane slot (children only). */
  laned: boolean;
  /** Unlinks the run from its parent's cancellation. */
  detach?: () => void;
}

export interface ResolvedProvider {
  provider: ModelProvider;
  config: ProviderConfig;
  label: string;
}

export interface SupervisorDeps {
  store: RuntimeStore;
  config: ArborConfig;
  cwd: string;
  approvals: ApprovalBroker;
  providerFor(agent: AgentConfig): ResolvedProvider;
  /** Every tool before policy filtering (builtins, spawn_subagent, delegate). */
  baseTools: ToolRegistry;
  filterTools(registry: ToolRegistry, risk: RiskProfile): ToolRegistry;
  hooks: LoopHooks;
  trace(event: 'run_started' | 'run_finished' | 'run_failed', run: Run): void;
  /** A child reached a terminal state (session log snapshot, background notices). */
  onChildEnded?(run: Run): void;
  /** A line in the chat transcript (and the session file), e.g. a background task ending. */
  notice?(level: 'info' | 'warn' | 'error', text: string): void;
  /** More services for tools (the delegate service), built per tree budget. */
  extraServices?(supervisor: Supervisor, budget: ExecutionBudget | undefined): Record<string, unknown>;
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
  /** Runs the child's work; gets the handle once the child holds a lane slot. */
  execute(handle: RunHandle, run: Run): Promise<string>;
}
