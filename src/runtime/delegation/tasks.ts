// Background delegate tasks: detached from the launching turn, each with a persisted record
// (persistence/taskRecords.ts) whose progress follows the run store, a heartbeat at least
// once a minute, and a chat notice when it ends. check/list/cancel/await answer only for
// rows whose caller chain contains the caller.
import { randomUUID } from 'node:crypto';
import { t } from '../../i18n/index.js';
import {
  TERMINAL_TASK_STATUSES,
  matchTaskIds,
  type TaskPatch,
  type TaskProgress,
  type TaskRecord,
  type TaskStore,
  type TaskToolCall,
  type TaskView,
} from '../../persistence/taskRecords.js';
import type { ChildOutcome } from '../../tools/childServices.js';
import { invalidSemanticCompletion } from '../../tools/delegate/format.js';
import type { AwaitReport, CancelResult } from '../../tools/delegate/services.js';
import { agentFailed, agentTimedOut } from '../../tools/delegate/strings.js';
import type { ToolCallOrigin } from '../../tools/types.js';
import { receiptLines, receiptsOn } from '../../tools/receipt.js';
import { flagLabel, flagReason, observedLine } from '../../model/ledgerText.js';
import type { PostNotice, SupervisorCore } from '../supervisorTypes.js';
import type { Run, ToolActivity, TranscriptItem } from '../types.js';

/** Well inside the reference's "at least once a minute". */
export const HEARTBEAT_MS = 30_000;
const AWAIT_POLL_MS = 200;
const CANCEL_WAIT_MS = 5_000;
const NOTICE_LINES = 3;
const NOTICE_LINE_MAX = 200;

const iso = (ms: number) => new Date(ms).toISOString();

function toolCall(a: ToolActivity): TaskToolCall {
  return {
    name: a.name,
    started_at: iso(a.startedAt),
    finished_at: a.finishedAt !== undefined ? iso(a.finishedAt) : null,
    success: a.success ?? null,
  };
}

export function progressOf(run: Run, timeoutSecs: number | undefined, now = Date.now()): TaskProgress {
  return {
    last_activity_at: iso(now),
    iterations: run.iterations,
    tools_completed: run.toolsCompleted,
    last_tool: run.lastTool ? toolCall(run.lastTool) : null,
    timeout_budget_secs: timeoutSecs ?? null,
    recent_tools: run.recentTools.map(toolCall),
    receipt_tail: [],
  };
}

interface LiveTask {
  taskId: string;
  runId: string;
  agent: string;
  /** The run that launched it, for max_children_per_agent. */
  launchedBy: string;
  cancelRequested: boolean;
  done: Promise<void>;
}

export interface BackgroundLaunch {
  taskId: string;
  agent: string;
  callerChain: string[];
  timeoutSecs?: number;
}

export class BackgroundTasks {
  private readonly live = new Map<string, LiveTask>();
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly supervisor: SupervisorCore,
    readonly store: TaskStore,
    /** The runtime's notice (chat and session file). */
    private readonly postNotice: PostNotice,
  ) {}

  newTaskId(): string {
    return randomUUID();
  }

  /** Live background tasks launched by `runId`. */
  launchedBy(runId: string): number {
    let n = 0;
    for (const task of this.live.values()) if (task.launchedBy === runId) n++;
    return n;
  }

  /** Writes the running record before the child exists, so the id the model gets always
   * names a record. */
  record(launch: BackgroundLaunch): void {
    const now = iso(Date.now());
    this.store.create({
      task_id: launch.taskId,
      agent: launch.agent,
      caller_chain: launch.callerChain,
      status: 'running',
      output: null,
      error: null,
      created_at: now,
      started_at: null,
      finished_at: null,
      heartbeat_at: now,
      pid: process.pid,
      progress: null,
    });
  }

  /** Follows the run's progress into its record until `work` settles. */
  async track<T>(launch: BackgroundLaunch, runId: string, work: () => Promise<T>): Promise<T> {
    const { store } = this.supervisor;
    const write = (extra: TaskPatch = {}) => {
      const run = store.getState().runs.get(runId);
      if (!run) return;
      const now = Date.now();
      this.safeUpdate(launch.taskId, { heartbeat_at: iso(now), progress: progressOf(run, launch.timeoutSecs, now), ...extra });
    };
    write({ started_at: iso(Date.now()) });
    const unsubscribe = store.subscribe((s, prev) => {
      const r = s.runs.get(runId);
      const p = prev.runs.get(runId);
      if (r && p && (r.iterations !== p.iterations || r.toolsCompleted !== p.toolsCompleted || r.lastTool !== p.lastTool)) write();
    });
    const heartbeat = setInterval(() => {
      const rec = this.safeGet(launch.taskId);
      if (rec?.status === 'running') this.safeUpdate(launch.taskId, { heartbeat_at: iso(Date.now()) });
    }, HEARTBEAT_MS);
    heartbeat.unref?.();
    try {
      return await work();
    } finally {
      unsubscribe();
      clearInterval(heartbeat);
    }
  }

  /** Registers a started child; `outcome` settles when it ends. */
  adopt(launch: BackgroundLaunch, runId: string, launchedBy: string, outcome: Promise<ChildOutcome & { run: Run }>): void {
    const task: LiveTask = {
      taskId: launch.taskId,
      runId,
      agent: launch.agent,
      launchedBy,
      cancelRequested: false,
      done: Promise.resolve(),
    };
    task.done = outcome.then(
      (o) => this.finish(launch, task, o, o.run),
      (err: unknown) => this.finish(launch, task, { status: 'failed', text: '', error: (err as Error).message }, undefined),
    );
    this.live.set(launch.taskId, task);
  }

  /** The record's final state comes from the runtime outcome, never from the model's text. */
  private finish(launch: BackgroundLaunch, task: LiveTask, outcome: ChildOutcome, run: Run | undefined): void {
    this.live.delete(task.taskId);
    const agent = launch.agent;
    let patch: TaskPatch;
    switch (outcome.status) {
      case 'completed':
        patch =
          outcome.text.trim() !== ''
            ? { status: 'completed', output: outcome.text }
            : { status: 'failed', error: invalidSemanticCompletion(agent) };
        break;
      case 'timed_out':
        patch = {
          status: 'failed',
          error: launch.timeoutSecs ? agentTimedOut(agent, launch.timeoutSecs) : agentFailed(agent, 'timed out'),
        };
        break;
      case 'failed':
        patch = { status: 'failed', error: agentFailed(agent, outcome.error ?? 'failed') };
        break;
      case 'killed':
        patch = { status: 'cancelled', error: outcome.error ?? outcome.status };
        break;
      default:
        // Detached from every turn, so only cancel_task or a shutdown cancels it.
        patch = {
          status: 'cancelled',
          error: t(task.cancelRequested ? 'delegate:task.cancelledByTool' : 'delegate:task.cancelledByShutdown'),
        };
    }
    const now = Date.now();
    const receipt = receiptsOn(this.supervisor.config) && outcome.observed ? receiptLines(outcome.observed) : undefined;
    const stored = this.safeUpdate(task.taskId, {
      ...patch,
      ...(receipt ? { receipt } : {}),
      // The parent reads where its isolated child's changes went through check_result and
      // await_sessions, as a foreground result's last line tells it.
      ...(outcome.worktreeNote ? { worktree: outcome.worktreeNote } : {}),
      finished_at: iso(now),
      heartbeat_at: iso(now),
      ...(run ? { progress: progressOf(run, launch.timeoutSecs, now) } : {}),
    });
    for (const wake of [...this.wakers]) wake();
    // Already settled otherwise (marked lost as the chat quit): the record has the last word.
    if (stored && stored.status !== patch.status) return;
    this.notice(task, outcome, run, patch.status === 'completed' ? (patch.output ?? '') : (patch.error ?? ''));
  }

  private notice(task: LiveTask, outcome: ChildOutcome, run: Run | undefined, body: string): void {
    const activeMs =
      run?.startedAt !== undefined && run.endedAt !== undefined ? Math.max(0, run.endedAt - run.startedAt - run.pausedMs) : 0;
    const lines = body
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, NOTICE_LINES)
      .map((l) => (l.length > NOTICE_LINE_MAX ? `${l.slice(0, NOTICE_LINE_MAX - 1)}…` : l));
    const text = t('delegate:notice.backgroundEnded', {
      id: task.taskId.slice(0, 8),
      agent: task.agent,
      status: t(`delegate:status.${outcome.status}`),
      runtime: (activeMs / 1000).toFixed(1),
      tokens: (run?.tokensIn ?? 0) + (run?.tokensOut ?? 0),
      cost: (run?.costUsd ?? 0).toFixed(4),
    });
    const item: TranscriptItem & { kind: 'notice' } = {
      id: randomUUID(),
      kind: 'notice',
      level: outcome.status === 'completed' ? 'info' : outcome.status === 'failed' || outcome.status === 'timed_out' ? 'error' : 'warn',
      text: [text, ...lines, ...observedNotice(outcome), ...this.worktreeNotice(run)].join('\n'),
      at: Date.now(),
    };
    this.post(item);
  }

  /** An isolated child's worktree, branch and merge outcome, read after the merge queue
   * settled it (the run in the outcome is the one from before). */
  private worktreeNotice(run: Run | undefined): string[] {
    const wt = run && this.supervisor.store.getState().runs.get(run.id)?.worktree;
    if (!wt || wt.inherited) return [];
    const detail =
      wt.state === 'conflict' && wt.conflict
        ? t('worktrees:command.conflictDetail', { files: wt.conflict.files.join(', '), with: wt.conflict.with })
        : wt.files?.length
          ? t('worktrees:command.detail', { count: wt.files.length, added: wt.added ?? 0, removed: wt.removed ?? 0 })
          : '';
    return [t('delegate:notice.worktree', { branch: wt.branch, path: wt.path, state: t(`worktrees:state.${wt.state}`), detail })];
  }

  private post(item: TranscriptItem & { kind: 'notice' }): void {
    this.postNotice(item.level, item.text);
  }

  private noteWriteFailure(taskId: string, err: unknown): void {
    const item: TranscriptItem & { kind: 'notice' } = {
      id: randomUUID(),
      kind: 'notice',
      level: 'warn',
      text: t('delegate:notice.recordWriteFailed', { id: taskId, error: (err as Error).message }),
      at: Date.now(),
    };
    this.post(item);
  }

  private safeUpdate(taskId: string, patch: TaskPatch): TaskRecord | undefined {
    try {
      return this.store.update(taskId, patch);
    } catch (err) {
      this.noteWriteFailure(taskId, err);
      return undefined;
    }
  }

  private safeGet(taskId: string) {
    try {
      return this.store.get(taskId);
    } catch {
      return undefined;
    }
  }

  // ---- the model-facing task actions ----

  private owned(ctx: ToolCallOrigin, taskId: string) {
    const rec = this.store.get(taskId);
    return rec && rec.caller_chain.includes(ctx.caller.alias) ? rec : undefined;
  }

  check(ctx: ToolCallOrigin, taskId: string): TaskView | undefined {
    const rec = this.owned(ctx, taskId);
    return rec ? this.store.view(rec) : undefined;
  }

  list(ctx: ToolCallOrigin): TaskView[] {
    return this.store
      .list()
      .filter((r) => r.caller_chain.includes(ctx.caller.alias))
      .map((r) => this.store.view(r));
  }

  /** Matched against every visible record, not only this process's tasks: a task started
   * in an earlier run is still checked by the short id its card showed. */
  match(ctx: ToolCallOrigin, idOrPrefix: string): string[] {
    const ids = this.store
      .list()
      .filter((r) => r.caller_chain.includes(ctx.caller.alias))
      .map((r) => r.task_id);
    return matchTaskIds(idOrPrefix, ids);
  }

  async cancel(ctx: ToolCallOrigin, taskId: string): Promise<CancelResult> {
    const rec = this.owned(ctx, taskId);
    if (!rec) return { kind: 'missing' };
    if (TERMINAL_TASK_STATUSES.has(rec.status)) return { kind: 'finished', status: rec.status };
    const task = this.live.get(rec.task_id);
    if (task) {
      task.cancelRequested = true;
      this.supervisor.stop(task.runId, 'cancelled');
      await Promise.race([task.done, new Promise((r) => setTimeout(r, CANCEL_WAIT_MS).unref?.())]);
      return { kind: 'cancelled', agent: rec.agent };
    }
    if (rec.pid !== process.pid) return { kind: 'elsewhere', pid: rec.pid };
    // Ours by pid, but no runtime here runs it any more (a disposed runtime): close it.
    this.safeUpdate(rec.task_id, { status: 'cancelled', error: t('delegate:task.cancelledByTool'), finished_at: iso(Date.now()) });
    return { kind: 'cancelled', agent: rec.agent };
  }

  private snapshot(ctx: ToolCallOrigin, ids: string[]): AwaitReport {
    const report: AwaitReport = { status: 'complete', completed: [], pending: [], missing: [], failed: [], results: {} };
    for (const id of ids) {
      let rec;
      try {
        rec = this.owned(ctx, id);
      } catch {
        rec = undefined;
      }
      if (!rec) {
        report.missing.push(id);
        continue;
      }
      report.results[id] = this.store.view(rec);
      if (rec.status === 'running') report.pending.push(id);
      else if (rec.status === 'completed') report.completed.push(id);
      else report.failed.push(id);
    }
    report.status = report.pending.length === 0 && report.missing.length === 0 ? 'complete' : 'timeout';
    return report;
  }

  /** Waits until no listed task is running, the timeout passes, or the turn is stopped. */
  async await(ctx: ToolCallOrigin, ids: string[], timeoutMs: number): Promise<AwaitReport> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const report = this.snapshot(ctx, ids);
      const left = deadline - Date.now();
      if (report.pending.length === 0 || left <= 0 || ctx.signal.aborted) return report;
      // Tasks of this process wake the wait at once; others (another arbor) are polled.
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wakers.delete(done);
          ctx.signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(AWAIT_POLL_MS, left));
        this.wakers.add(done);
        ctx.signal.addEventListener('abort', done, { once: true });
      });
    }
  }
}

/** The announce's Observed line and flags: what the runtime saw, beside what the child said. */
function observedNotice(outcome: ChildOutcome): string[] {
  const o = outcome.observed;
  if (!o) return [];
  return [`${t('ledger:observed')}: ${observedLine(o.summary)}`, ...o.flags.map((f) => `⚠ ${flagLabel(f)}: ${flagReason(f, o.summary)}`)];
}
