// What the delegate tool needs from the runtime. Declared here and implemented in
// runtime/delegation/service.ts, so tools/ stays below runtime/ in the import graph.
import type { DelegateMode } from '../../config/types.js';
import type { TaskView } from '../../persistence/taskRecords.js';
import type { ChildOutcome } from '../childServices.js';
import type { ToolCallOrigin } from '../caller.js';

export interface DelegateRequest {
  /** The target agent's alias. */
  target: string;
  mode: DelegateMode;
  /** The child's only user message (context already prepended). */
  task: string;
  /** The call asked for its own git worktree. */
  isolation?: 'worktree';
}

export interface DelegateRunOutcome extends ChildOutcome {
  /** "<provider_type>/<model>" of the target, for the envelope. */
  label: string;
  agentic: boolean;
  /** The active-time limit the child ran under, when it had one. */
  timeoutSecs?: number;
}

export type CancelResult =
  { kind: 'cancelled'; agent: string } | { kind: 'finished'; status: string } | { kind: 'elsewhere'; pid: number } | { kind: 'missing' };

export interface AwaitReport {
  status: 'complete' | 'timeout';
  completed: string[];
  pending: string[];
  missing: string[];
  failed: string[];
  results: Record<string, TaskView>;
}

export interface DelegateServices {
  /** Shared spawn limits (spawn pause, children per run) for `count` new children, or
   * undefined when they may start. */
  admissionRefusal(ctx: ToolCallOrigin, count: number): string | undefined;
  /** Why a target that needs its own git worktree cannot have one (the literal refusal),
   * checked for every request before any run exists. Undefined (not a promise) when no
   * request needs a worktree: nothing to wait for between admission and the runs. */
  isolationRefusal(ctx: ToolCallOrigin, requests: DelegateRequest[]): Promise<string | undefined> | undefined;
  /** Runs foreground children (one, or a parallel fan-out) bound to the turn's cancellation;
   * outcomes come back in request order. Never throws. */
  runForeground(ctx: ToolCallOrigin, requests: DelegateRequest[]): Promise<DelegateRunOutcome[]>;
  /** Records and starts a detached background child; returns its task id at once. */
  startBackground(ctx: ToolCallOrigin, request: DelegateRequest): { taskId: string };
  /** Rows are visible only when their caller chain contains the caller's alias. */
  checkResult(ctx: ToolCallOrigin, taskId: string): TaskView | undefined;
  listResults(ctx: ToolCallOrigin): TaskView[];
  /** The task ids visible to the caller that a full id or a short prefix names, from the
   * task records (any earlier run or session on this ARBOR_HOME): one for a unique match,
   * several when ambiguous, none when nothing matches. */
  matchTaskIds(ctx: ToolCallOrigin, idOrPrefix: string): string[];
  cancelTask(ctx: ToolCallOrigin, taskId: string): Promise<CancelResult>;
  awaitSessions(ctx: ToolCallOrigin, taskIds: string[], timeoutMs: number): Promise<AwaitReport>;
}

/** The delegate services of a call's context (ToolServices.delegate). */
export function delegateServices(ctx: { services: { delegate?: DelegateServices } | undefined }): DelegateServices | undefined {
  return ctx.services?.delegate;
}
