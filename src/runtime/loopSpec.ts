// What one agent turn is given (LoopSpec), whom it tells (LoopHooks) and how it stops: the
// contract between the loop's modules (loop.ts, stepBoundary.ts, toolCall.ts, stepCalls.ts)
// and the supervisor and root turn that run it.
import type { ProviderConfig } from '../config/types.js';
import type { ModelMessage, ModelProvider, ToolCallRequest } from '../providers/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ActionTracker, ToolCaller, ToolServices } from '../tools/types.js';
import type { ArborConfig } from '../config/types.js';
import type { ApprovalBroker } from './approvals.js';
import type { ToolObserver } from './ledger/book.js';
import type { ExecutionBudget } from './executionBudget.js';
import type { PauseGate } from './pauseGate.js';
import type { QuotaWaiter } from './quotaPause.js';
import type { RuntimeStore } from './store.js';
import type { TranscriptItem } from './types.js';

export interface LoopHooks {
  /** An item reached its final form (for the session log). */
  onItemFinal?(runId: string, item: TranscriptItem): void;
  /** A message entered the run's model history (for the session log and restore). */
  onMessage?(runId: string, message: ModelMessage): void;
  onToolStarted?(runId: string, tool: string): void;
  onToolFinished?(runId: string, tool: string, success: boolean, ms: number): void;
  /** A provider retry: shown in the status bar. */
  onRetry?(runId: string, text: string | undefined): void;
  /** A model call's usage was recorded on the run (per-child budgets count it). */
  onUsage?(runId: string, tokensIn: number, tokensOut: number, costUsd: number): void;
}

export interface LoopSpec {
  runId: string;
  store: RuntimeStore;
  config: ArborConfig;
  provider: ModelProvider;
  providerConfig: ProviderConfig;
  systemPrompt: string;
  /** The run's own model history, appended in place. */
  history: ModelMessage[];
  tools: ToolRegistry;
  caller: ToolCaller;
  signal: AbortSignal;
  gate: PauseGate;
  budget?: { budget: ExecutionBudget; role: 'root' | 'child' };
  approvals: ApprovalBroker;
  isChild: boolean;
  tracker: ActionTracker;
  cwd: string;
  /** Handed to tools that create runs. */
  services: ToolServices | undefined;
  /** Steering messages waiting for the next step boundary. */
  takeSteering(): string[];
  /** True while steering is waiting: a final answer then gets one more step to read it. */
  hasSteering?(): boolean;
  hooks: LoopHooks;
  /** Model calls allowed in this turn (max_tool_iterations, or 1 for a non-agentic target). */
  maxIterations: number;
  /** Holds the run while its provider's rate or quota limit lasts (runtime/quotaPause.ts). */
  quota?: QuotaWaiter;
  /** Large fan-outs wait for the operator (runtime/fanout.ts): the ids of calls declined. */
  reviewFanout?(calls: readonly ToolCallRequest[]): Promise<ReadonlySet<string>>;
  /** The observed-effects ledger (runtime/ledger/): sees every call around its run. */
  observer?: ToolObserver;
}

export class RunAbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortError';
  }
}

export class BudgetExhaustedError extends Error {}
