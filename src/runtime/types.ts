// Shapes of the runtime store: the one source of truth for every run's lifecycle.
// The UI, the headless printer and the persistence layer are all readers of these.
import type { RunTranscripts } from './runTranscripts.js';

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

export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set<RunStatus>([
  'completed',
  'failed',
  'killed',
  'timed_out',
  'cancelled',
]);

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
  /** Position in the concurrency queue (1-based) while queued. */
  queuePosition?: number;
  /** Milliseconds spent paused so far (timeouts do not count it). */
  pausedMs: number;
  pausedAt?: number;
  /** Background task id when kind === 'background'. */
  taskId?: string;
}

export type ToolCallStatus = 'pending_approval' | 'running' | 'ok' | 'error' | 'denied' | 'skipped';

export type TranscriptItem =
  | { id: string; kind: 'user'; text: string; at: number }
  | {
      id: string;
      kind: 'assistant';
      runId: string;
      text: string;
      at: number;
      /** True while tokens are still arriving. */
      streaming?: boolean;
      interrupted?: boolean;
    }
  | {
      id: string;
      kind: 'tool';
      runId: string;
      callId: string;
      name: string;
      args: unknown;
      rawArgs: string;
      status: ToolCallStatus;
      /** Retained result text, capped at 16 KiB. */
      result?: string;
      startedAt: number;
      endedAt?: number;
      /** Rendered from disk (--resume): never bound to live runs. */
      restored?: boolean;
    }
  | { id: string; kind: 'notice'; level: 'info' | 'warn' | 'error'; text: string; at: number };

export type ToolTranscriptItem = Extract<TranscriptItem, { kind: 'tool' }>;

export interface PendingApproval {
  id: string;
  runId: string;
  callId: string;
  tool: string;
  args: unknown;
  createdAt: number;
}

export type ApprovalAnswer = 'allow_once' | 'allow_session' | 'deny';

export interface RunawayState {
  tripped: boolean;
  /** Which threshold tripped, its limit and the measured value. */
  threshold?: string;
  limit?: number;
  measured?: number;
  rootRunId?: string;
  action?: string;
  at?: number;
}

export interface Controls {
  spawnPaused: boolean;
  approvals: PendingApproval[];
  runaway: RunawayState;
}

export interface SessionTotals {
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}

export interface RuntimeState {
  sessionId: string;
  runs: Record<string, Run>;
  /** Run ids in creation order. */
  runOrder: string[];
  /** The session's chat items (root turns only; children keep their own). */
  transcript: TranscriptItem[];
  /** Each child run's own transcript, by run id (`.get(runId)`). */
  runTranscripts: RunTranscripts;
  controls: Controls;
  totals: SessionTotals;
  /** The root run of the turn in flight, if any. */
  activeRootRunId?: string;
  /** Shown in the status bar while a provider retries. */
  retryNotice?: string;
  /** Why the last session save failed (file and reason), until a later save succeeds. */
  saveError?: string;
}
