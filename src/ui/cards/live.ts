// Binding a card to the child runs it started. The only link is the run's parentToolCallId
// (scoped to the run whose transcript holds the call, since model-issued call ids may repeat
// across turns): never the task text, the prompt or the alias. Restored cards never bind.
import { t } from '../../i18n/index.js';
import type { RuntimeState } from '../../model/state.js';
import { isTerminal, type Run } from '../../model/run.js';
import type { ToolTranscriptItem } from '../../model/transcript.js';
import { subtreeUsage, type Usage } from '../../model/usage.js';

function key(runId: string, callId: string): string {
  return `${runId}\u0000${callId}`;
}

const indexCache = new WeakMap<RuntimeState['runs'], Map<string, Run[]>>();

/** Child runs by (parent run, parent tool call), built once per store snapshot. */
export function runIndex(s: Pick<RuntimeState, 'runs' | 'runOrder'>): Map<string, Run[]> {
  const hit = indexCache.get(s.runs);
  if (hit) return hit;
  const index = new Map<string, Run[]>();
  for (const id of s.runOrder) {
    const run = s.runs.get(id);
    if (!run || run.parentToolCallId === undefined || run.parentRunId === undefined) continue;
    const k = key(run.parentRunId, run.parentToolCallId);
    const list = index.get(k);
    if (list) list.push(run);
    else index.set(k, [run]);
  }
  indexCache.set(s.runs, index);
  return index;
}

const NONE: readonly Run[] = Object.freeze([]);

/** The runs this card's call started, in creation order. */
export function boundRuns(s: Pick<RuntimeState, 'runs' | 'runOrder'>, item: ToolTranscriptItem): readonly Run[] {
  if (item.restored) return NONE;
  return runIndex(s).get(key(item.runId, item.callId)) ?? NONE;
}

/** Same runs, same versions: the store replaces a run object whenever it changes. */
export function sameRuns(a: readonly Run[], b: readonly Run[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export const isAlive = (run: Run): boolean => !isTerminal(run.status);

export function runStatusText(run: Run): string {
  if (run.status === 'queued' && run.queuePosition !== undefined) return t('transcript:status.queuedAt', { n: run.queuePosition });
  return t(`transcript:status.${run.status}`);
}

/** The tool the run is executing right now, if any. */
export function currentTool(run: Run): string | undefined {
  return run.lastTool && run.lastTool.finishedAt === undefined ? run.lastTool.name : undefined;
}

const sumsCache = new WeakMap<RuntimeState['runs'], ReturnType<typeof subtreeUsage>>();

/** What a call's children spent, each with everything under it. */
export function callUsage(s: Pick<RuntimeState, 'runs' | 'runOrder'>, runs: readonly Run[]): CallUsage {
  const out: CallUsage = { tokensIn: 0, tokensOut: 0, costUsd: 0, descendants: 0 };
  if (runs.length === 0) return out;
  // Every live card reads the same snapshot: one pass over the runs serves them all.
  let sums = sumsCache.get(s.runs);
  if (!sums) {
    sums = subtreeUsage(s.runs, s.runOrder);
    sumsCache.set(s.runs, sums);
  }
  for (const r of runs) {
    const u = sums.get(r.id);
    if (!u) continue;
    out.tokensIn += u.tokensIn;
    out.tokensOut += u.tokensOut;
    out.costUsd += u.costUsd;
    out.descendants += u.descendants;
  }
  return out;
}

export type CallUsage = Usage & { descendants: number };

export const sameUsage = (a: CallUsage, b: CallUsage): boolean =>
  a.tokensIn === b.tokensIn && a.tokensOut === b.tokensOut && a.costUsd === b.costUsd && a.descendants === b.descendants;
