// Binding a card to the child runs it started. The only link is the run's parentToolCallId
// (scoped to the run whose transcript holds the call, since model-issued call ids may repeat
// across turns): never the task text, the prompt or the alias. Restored cards never bind.
import { t } from '../../i18n/index.js';
import type { RuntimeState } from '../../model/state.js';
import { isTerminal, type Run } from '../../model/run.js';
import type { ToolTranscriptItem } from '../../model/transcript.js';
import type { Usage } from '../../model/usage.js';

function key(runId: string, callId: string): string {
  return `${runId}\u0000${callId}`;
}

interface IdIndex {
  /** Child ids by (parent run, parent tool call), in creation order. */
  byCall: Map<string, string[]>;
  /** Child ids by parent run, in creation order. */
  byParent: Map<string, string[]>;
}

// Ids only, keyed by the creation order: a run's parent and parent call never change, and
// the store replaces runOrder only when it adds a run, while `runs` is replaced on every
// update of any run. Indexing run objects per `runs` made every card rebuild the index over
// all runs after each update: a 1,000-child fan-out paid that once per child event.
const indexCache = new WeakMap<readonly string[], IdIndex>();

function idIndex(s: Pick<RuntimeState, 'runs' | 'runOrder'>): IdIndex {
  const hit = indexCache.get(s.runOrder);
  if (hit) return hit;
  const index: IdIndex = { byCall: new Map(), byParent: new Map() };
  for (const id of s.runOrder) {
    const run = s.runs.get(id);
    if (!run || run.parentRunId === undefined) continue;
    push(index.byParent, run.parentRunId, id);
    if (run.parentToolCallId !== undefined) push(index.byCall, key(run.parentRunId, run.parentToolCallId), id);
  }
  indexCache.set(s.runOrder, index);
  return index;
}

function push(map: Map<string, string[]>, k: string, id: string): void {
  const list = map.get(k);
  if (list) list.push(id);
  else map.set(k, [id]);
}

function present(s: Pick<RuntimeState, 'runs'>, ids: readonly string[]): Run[] {
  const runs: Run[] = [];
  for (const id of ids) {
    const run = s.runs.get(id);
    if (run) runs.push(run);
  }
  return runs;
}

const NONE: readonly Run[] = Object.freeze([]);

/** The runs this card's call started, in creation order. */
export function boundRuns(s: Pick<RuntimeState, 'runs' | 'runOrder'>, item: ToolTranscriptItem): readonly Run[] {
  if (item.restored) return NONE;
  const ids = idIndex(s).byCall.get(key(item.runId, item.callId));
  if (!ids) return NONE;
  const runs = present(s, ids);
  return runs.length > 0 ? runs : NONE;
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

/** What a call's children spent, each with everything under it: their subtrees only,
 * walked through the id index (a sum over every run for each card cost each refresh O(runs)). */
export function callUsage(s: Pick<RuntimeState, 'runs' | 'runOrder'>, runs: readonly Run[]): CallUsage {
  const out: CallUsage = { tokensIn: 0, tokensOut: 0, costUsd: 0, descendants: 0 };
  if (runs.length === 0) return out;
  const { byParent } = idIndex(s);
  const add = (run: Run) => {
    out.tokensIn += run.tokensIn;
    out.tokensOut += run.tokensOut;
    out.costUsd += run.costUsd;
  };
  for (const r of runs) {
    add(r);
    // Iterative, so a deep chain of children cannot overflow the stack.
    const stack = [...(byParent.get(r.id) ?? [])];
    while (stack.length > 0) {
      const child = s.runs.get(stack.pop()!);
      if (!child) continue;
      add(child);
      out.descendants++;
      for (const id of byParent.get(child.id) ?? []) stack.push(id);
    }
  }
  return out;
}

export type CallUsage = Usage & { descendants: number };

export const sameUsage = (a: CallUsage, b: CallUsage): boolean =>
  a.tokensIn === b.tokensIn && a.tokensOut === b.tokensOut && a.costUsd === b.costUsd && a.descendants === b.descendants;
