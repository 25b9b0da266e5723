// The runtime store: a zustand vanilla store holding every run, the session transcript,
// each child's transcript and the controls. Only the runtime calls the mutators below;
// the UI reads through selectors and acts through the Runtime facade.
//
// Outside text enters the UI only through these mutators, so they are where it is
// neutralised (text/untrusted.ts): model text, tool names, arguments and results, a run's
// task, answer and error, notices and the retry notice. No view can forget it.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { neutralize } from '../text/untrusted.js';
import { neutralizeItem, neutralizeRunFields } from '../text/untrustedItems.js';
import { BucketedMap } from '../model/bucketedMap.js';
import { RunTranscripts } from './runTranscripts.js';
import {
  isTerminal,
  type Controls,
  type Run,
  type RunStatus,
  type TerminalStatus,
  type RuntimeInfo,
  type RuntimeState,
  type ToolActivity,
  type TranscriptItem,
} from './types.js';

export type RuntimeStore = StoreApi<RuntimeState>;

/** Retained tool results are capped here; the card's Copy uses what is retained. */
export const RETAINED_RESULT_CAP = 16 * 1024;

const TOOL_NAME_CAP = 64;

export function initialControls(): Controls {
  return { spawnPaused: false, approvals: [], runaway: { tripped: false } };
}

/** What a store says before the runtime names its agent and provider (test stores keep it). */
const UNNAMED: RuntimeInfo = { agentAlias: 'main', providerName: '', providerLabel: '', configWarnings: [] };

export function createRuntimeStore(sessionId: string, info: RuntimeInfo = UNNAMED): RuntimeStore {
  return createStore<RuntimeState>(() => ({
    sessionId,
    info,
    runs: BucketedMap.empty<Run>(),
    runOrder: [],
    nextRunNumber: 1,
    transcript: [],
    runTranscripts: RunTranscripts.empty,
    controls: initialControls(),
    totals: { tokensIn: 0, tokensOut: 0, costUsd: 0 },
  }));
}

export function capResult(text: string): string {
  if (Buffer.byteLength(text, 'utf8') <= RETAINED_RESULT_CAP) return text;
  // Cut on a character boundary at or below the byte cap.
  const buf = Buffer.from(text, 'utf8').subarray(0, RETAINED_RESULT_CAP);
  return buf.toString('utf8').replace(/\uFFFD$/, '');
}

export function cutToolName(name: string): string {
  return neutralize(name.length > TOOL_NAME_CAP ? name.slice(0, TOOL_NAME_CAP) : name);
}

// ---- mutators (runtime only) ----

/** Adds a run; a child without a number gets the session's next one. */
export function addRun(store: RuntimeStore, untrusted: Run): void {
  const given = neutralizeRunFields(untrusted);
  store.setState((s) => {
    const numbered = given.kind === 'root' || given.number !== undefined;
    const run = numbered ? given : { ...given, number: s.nextRunNumber };
    const next = run.number !== undefined ? Math.max(s.nextRunNumber, run.number + 1) : s.nextRunNumber;
    return { runs: s.runs.with(run.id, run), runOrder: [...s.runOrder, run.id], nextRunNumber: next };
  });
}

/** A resumed session numbers its new children after the ones it saved. */
export function continueRunNumbers(store: RuntimeStore, saved: readonly Run[]): void {
  let next = store.getState().nextRunNumber;
  for (const run of saved) if (run.kind !== 'root') next = Math.max(next, (run.number ?? 0) + 1);
  // Saved children without numbers (older files) still count, so a new number is not reused.
  const unnumbered = saved.filter((r) => r.kind !== 'root' && r.number === undefined).length;
  store.setState({ nextRunNumber: next + unnumbered });
}

/** Progress updates only touch an existing run, and never a finished one. */
export function patchRun(store: RuntimeStore, runId: string, patch: Partial<Run> | ((run: Run) => Partial<Run>)): void {
  store.setState((s) => {
    const run = s.runs.get(runId);
    if (!run || isTerminal(run.status)) return s;
    const p = neutralizeRunFields(typeof patch === 'function' ? patch(run) : patch);
    return { runs: s.runs.with(runId, { ...run, ...p }) };
  });
}

/** The run as `status` leaves it: timestamps, pause accounting, queue position. */
function withStatus(run: Run, status: RunStatus, extra: Partial<Run>, now: number): Run {
  const next: Run = { ...run, ...extra, status };
  if (status === 'running' && run.startedAt === undefined) next.startedAt = now;
  // Waiting for the operator's answer stops the active-time clock as a pause does.
  const held = (st: RunStatus) => st === 'paused' || st === 'awaiting_approval';
  if (held(status) && !held(run.status)) next.pausedAt = now;
  if (held(run.status) && !held(status) && run.pausedAt !== undefined) {
    next.pausedMs = run.pausedMs + (now - run.pausedAt);
    next.pausedAt = undefined;
  }
  if (isTerminal(status)) {
    next.endedAt = now;
    next.queuePosition = undefined;
    if (held(run.status) && run.pausedAt !== undefined) {
      next.pausedMs = run.pausedMs + (now - run.pausedAt);
      next.pausedAt = undefined;
    }
  }
  return next;
}

/** Moves a run to a new status. Terminal statuses are final: a late event never overwrites one. */
export function setRunStatus(store: RuntimeStore, runId: string, status: RunStatus, untrusted: Partial<Run> = {}): boolean {
  const extra = neutralizeRunFields(untrusted);
  let changed = false;
  store.setState((s) => {
    const run = s.runs.get(runId);
    if (!run || isTerminal(run.status)) return s;
    changed = true;
    return { runs: s.runs.with(runId, withStatus(run, status, extra, Date.now())) };
  });
  return changed;
}

/** Ends many runs in one update (a kill of a large tree); runs already ended are left. */
export function endRuns(store: RuntimeStore, runIds: readonly string[], status: TerminalStatus, untrusted: Partial<Run> = {}): void {
  if (runIds.length === 0) return;
  const extra = neutralizeRunFields(untrusted);
  store.setState((s) => {
    const now = Date.now();
    const ended: [string, Run][] = [];
    for (const id of runIds) {
      const run = s.runs.get(id);
      if (!run || isTerminal(run.status)) continue;
      ended.push([id, withStatus(run, status, extra, now)]);
    }
    return ended.length > 0 ? { runs: s.runs.withMany(ended) } : s;
  });
}

export function toolStarted(store: RuntimeStore, runId: string, name: string, at = Date.now()): void {
  patchRun(store, runId, { lastTool: { name: cutToolName(name), startedAt: at } });
}

export function toolFinished(store: RuntimeStore, runId: string, name: string, startedAt: number, success: boolean): void {
  patchRun(store, runId, (run) => {
    const done: ToolActivity = { name: cutToolName(name), startedAt, finishedAt: Date.now(), success };
    return {
      toolsCompleted: run.toolsCompleted + 1,
      lastTool: run.lastTool && run.lastTool.finishedAt === undefined && run.lastTool.startedAt !== startedAt ? run.lastTool : done,
      recentTools: [...run.recentTools, done].slice(-5),
    };
  });
}

export function addUsage(store: RuntimeStore, runId: string, tokensIn: number, tokensOut: number, costUsd: number): void {
  store.setState((s) => {
    const run = s.runs.get(runId);
    const runs = run
      ? s.runs.with(runId, {
          ...run,
          tokensIn: run.tokensIn + tokensIn,
          tokensOut: run.tokensOut + tokensOut,
          costUsd: run.costUsd + costUsd,
        })
      : s.runs;
    return {
      runs,
      totals: {
        tokensIn: s.totals.tokensIn + tokensIn,
        tokensOut: s.totals.tokensOut + tokensOut,
        costUsd: s.totals.costUsd + costUsd,
      },
    };
  });
}

/** Appends to the session transcript (root runs) or to a child's own transcript. */
export function appendItem(store: RuntimeStore, runId: string | undefined, untrusted: TranscriptItem): TranscriptItem {
  const item = neutralizeItem(untrusted);
  store.setState((s) => {
    if (runId === undefined || isRootRun(s, runId)) return { transcript: [...s.transcript, item] };
    const list = s.runTranscripts.get(runId) ?? [];
    return { runTranscripts: s.runTranscripts.with(runId, [...list, item]) };
  });
  return item;
}

export function updateItem(
  store: RuntimeStore,
  runId: string | undefined,
  itemId: string,
  patch: (item: TranscriptItem) => TranscriptItem,
): TranscriptItem | undefined {
  let stored: TranscriptItem | undefined;
  store.setState((s) => {
    const root = runId === undefined || isRootRun(s, runId);
    const list = root ? s.transcript : (s.runTranscripts.get(runId!) ?? []);
    // Search from the end: the item being updated is almost always among the newest.
    let idx = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i].id === itemId) {
        idx = i;
        break;
      }
    }
    if (idx < 0) return s;
    const next = list.slice();
    stored = next[idx] = neutralizeItem(patch(list[idx]));
    return root ? { transcript: next } : { runTranscripts: s.runTranscripts.with(runId!, next) };
  });
  return stored;
}

/** The status bar's retry line (it quotes a server's error text). */
/** /model switched the user's agent: views reading `info` redraw with it. */
export function setRuntimeInfo(store: RuntimeStore, patch: Partial<RuntimeInfo>): void {
  store.setState((s) => ({ info: { ...s.info, ...patch } }));
}

export function setRetryNotice(store: RuntimeStore, text: string | undefined): void {
  const notice = text === undefined ? undefined : neutralize(text);
  if (store.getState().retryNotice !== notice) store.setState({ retryNotice: notice });
}

function isRootRun(s: RuntimeState, runId: string): boolean {
  const run = s.runs.get(runId);
  return !run || run.kind === 'root';
}

/** The transcript a run's items go to: the chat's for a root turn, else the child's own. */
export function transcriptOf(s: RuntimeState, runId: string): readonly TranscriptItem[] {
  return isRootRun(s, runId) ? s.transcript : (s.runTranscripts.get(runId) ?? []);
}

// ---- selectors (pure; safe for React) ----

/** The run and its descendants that have not ended, the run first. */
export function liveSubtree(s: RuntimeState, runId: string): Run[] {
  const run = s.runs.get(runId);
  return [...(run ? [run] : []), ...descendantsOf(s, runId)].filter((r) => !isTerminal(r.status));
}

export function descendantsOf(s: RuntimeState, runId: string): Run[] {
  const out: Run[] = [];
  const stack = [runId];
  const byParent = new Map<string, string[]>();
  for (const id of s.runOrder) {
    const p = s.runs.get(id)?.parentRunId;
    if (p) byParent.set(p, [...(byParent.get(p) ?? []), id]);
  }
  while (stack.length) {
    const cur = stack.pop()!;
    for (const child of byParent.get(cur) ?? []) {
      out.push(s.runs.get(child)!);
      stack.push(child);
    }
  }
  return out;
}

/** Background delegate tasks of this process still running: what quitting would abandon. */
export function runningBackgroundTasks(s: RuntimeState): Run[] {
  const out: Run[] = [];
  for (const id of s.runOrder) {
    const run = s.runs.get(id);
    if (run && run.kind === 'background' && run.taskId !== undefined && !isTerminal(run.status)) out.push(run);
  }
  return out;
}

/** Resolves once no background task of this process is running and what follows a run's
 * end in the same tick (its task record, its notice: promise callbacks) has happened. */
export async function backgroundTasksSettled(store: RuntimeStore): Promise<void> {
  await new Promise<void>((resolve) => {
    if (runningBackgroundTasks(store.getState()).length === 0) return resolve();
    const unsubscribe = store.subscribe((s) => {
      if (runningBackgroundTasks(s).length > 0) return;
      unsubscribe();
      resolve();
    });
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
}
