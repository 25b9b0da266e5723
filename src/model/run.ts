// A run's shape and lifecycle: what every layer (runtime, persistence, ui, text) reads about
// one agent run. Plain data, so it sits below every layer.
import type { RunLedger } from './ledger.js';
import type { RunWorktree } from './worktree.js';

export type RunStatus =
  | 'queued'
  | 'running'
  /** Asked to pause, still finishing the step in flight (a model call or a tool). */
  | 'pausing'
  /** Held at a step boundary (or waiting only on children that are all held). */
  | 'paused'
  | 'awaiting_approval'
  | 'completed'
  | 'failed'
  | 'killed'
  | 'timed_out'
  | 'cancelled';

/** The statuses a run ends in; nothing moves a run out of one. */
export type TerminalStatus = Exclude<RunStatus, 'queued' | 'running' | 'pausing' | 'paused' | 'awaiting_approval'>;

export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set<RunStatus>(['completed', 'failed', 'killed', 'timed_out', 'cancelled']);

export function isTerminal(status: RunStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

export type RunKind = 'root' | 'subagent' | 'delegate' | 'background';

export interface ToolActivity {
  /** Tool name, cut at 64 characters. */
  name: string;
  startedAt: number;
  finishedAt?: number;
  success?: boolean;
}

export interface Run {
  id: string;
  /** Short display id (first 8 hex of the uuid). */
  shortId: string;
  parentRunId?: string;
  /** The tool call (in the parent's transcript) that created this run. */
  parentToolCallId?: string;
  rootRunId: string;
  depth: number;
  alias: string;
  /** The child's number in its session (1, 2, …), given once at creation in creation order
   * and saved with the run, so `#3` and `researcher#3` name the same run for the whole
   * session, however many runs start later. Root turns have none. */
  number?: number;
  kind: RunKind;
  status: RunStatus;
  task: string;
  /** Conversation-history key: `session-<id>` for roots, `subagent-<uuid>`, `delegate-<uuid>`. */
  sessionKey: string;
  /** "<provider_type>/<model>" */
  model: string;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  iterations: number;
  toolsCompleted: number;
  lastTool?: ToolActivity;
  /** The last five finished tools, newest last. */
  recentTools: ToolActivity[];
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  result?: string;
  error?: string;
  /** Set when the runtime wrote `error` itself (RUN_ERROR_TEXT, or a child budget's stop):
   * views translate the code, with `errorParams` as the text's values. */
  errorCode?: RunErrorCode;
  errorParams?: Record<string, string | number>;
  /** Position in the concurrency queue (1-based) while queued. */
  queuePosition?: number;
  /** Milliseconds spent paused, or waiting for the operator to answer an ask, so far (timeouts do not count it). */
  pausedMs: number;
  pausedAt?: number;
  /** Background task id when kind === 'background'. */
  taskId?: string;
  /** Per-child limits in force (max_child_tokens, ...), narrowed to the caller's remainder. */
  limits?: Partial<Record<'max_child_tokens' | 'max_child_cost_cents' | 'max_child_seconds', number>>;
  /** What the runtime saw the run do (model/ledger.ts); absent until its first tool call. */
  observed?: RunLedger;
  /** Its own git worktree or an ancestor's (model/worktree.ts); absent: the caller's checkout. */
  worktree?: RunWorktree;
}

/** The errors the runtime itself writes on a run it ends, by a stable code. `Run.error` keeps
 * this English text (the parent model, traces, the ACP client and `-p` output read it, and
 * tests pin it); a view shows t(`runtime:runError.<code>`) instead, so the screen follows
 * the language. */
export const RUN_ERROR_TEXT = {
  interrupted: 'interrupted',
  stoppedWhileQueued: 'stopped while queued',
  stoppedBeforeStart: 'stopped before it started',
  timedOut: 'timed out',
  turnStopped: 'cancelled: the turn was stopped',
  killedByOperator: 'killed by the operator',
  killedByGuard: 'killed by the runaway guard',
  worktreeUnavailable: 'worktree isolation is not available in this runtime',
} as const;
/** The fixed texts' codes, and a child budget's stop (runtime/childBudget.ts: its text names
 * the limit, its value and the measured one, given as `errorParams`). */
export type RunErrorCode = FixedRunErrorCode | 'childBudgetExhausted';
export type FixedRunErrorCode = keyof typeof RUN_ERROR_TEXT;
/** Who killed a run, as its error says. */
export type KilledBy = Extract<FixedRunErrorCode, 'killedByOperator' | 'killedByGuard'>;

/** The run fields for a runtime-written error: its English text and its code. */
export type RunFailure = Pick<Run, 'error' | 'errorCode' | 'errorParams'>;

/** What every new run starts with: no work done yet (the supervisor's new runs, and the
 * runs tests build by hand, start from the same counters). */
export function freshRunCounters(): Pick<
  Run,
  'iterations' | 'toolsCompleted' | 'recentTools' | 'tokensIn' | 'tokensOut' | 'costUsd' | 'pausedMs'
> {
  return { iterations: 0, toolsCompleted: 0, recentTools: [], tokensIn: 0, tokensOut: 0, costUsd: 0, pausedMs: 0 };
}

export function runError(code: FixedRunErrorCode): { error: string; errorCode: RunErrorCode } {
  return { error: RUN_ERROR_TEXT[code], errorCode: code };
}

/** The model label of a child that is an external ACP agent (`acp/<agent name>`); no
 * provider type is called "acp", so the prefix cannot name a model child. */
export const EXTERNAL_ACP_MODEL_PREFIX = 'acp/';

/** A child run by an external ACP agent: arbor can hold its next ask, not stop its step. */
export function isExternalAcpRun(run: Pick<Run, 'model'>): boolean {
  return run.model.startsWith(EXTERNAL_ACP_MODEL_PREFIX);
}

/** How a run is named on screen and in commands: "researcher#3" for a child (its session
 * number), the alias alone for a root turn or a child recorded before runs had numbers. */
export function runName(run: Pick<Run, 'alias' | 'kind' | 'number'>): string {
  return run.kind !== 'root' && run.number !== undefined ? `${run.alias}#${run.number}` : run.alias;
}
