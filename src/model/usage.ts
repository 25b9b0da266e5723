// Token and cost roll-ups over the run tree: a run's own usage plus every descendant's.
// Pure over the runs, so the /agents pane, /subagents info, the cards and headless output
// all sum the same way.
import type { Run } from './run.js';

/** Runs by id: the store's run table, or anything else that looks runs up. */
export interface RunLookup {
  get(id: string): Run | undefined;
}

export interface Usage {
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}

/** Each run's subtree usage (itself and its descendants, by parentRunId), for every run in
 * `runs`, in one pass bottom-up. `descendants` counts the runs under each one. */
export function subtreeUsage(runs: RunLookup, order: readonly string[]): Map<string, Usage & { descendants: number }> {
  const out = new Map<string, Usage & { descendants: number }>();
  for (const id of order) {
    const r = runs.get(id);
    if (r) out.set(id, { tokensIn: r.tokensIn, tokensOut: r.tokensOut, costUsd: r.costUsd, descendants: 0 });
  }
  // Children are created after their parents, so walking creation order backwards adds each
  // finished subtree to its parent before the parent is added to its own.
  for (let i = order.length - 1; i >= 0; i--) {
    const r = runs.get(order[i]);
    const own = r && out.get(r.id);
    const parent = r?.parentRunId !== undefined ? out.get(r.parentRunId) : undefined;
    if (!own || !parent) continue;
    parent.tokensIn += own.tokensIn;
    parent.tokensOut += own.tokensOut;
    parent.costUsd += own.costUsd;
    parent.descendants += 1 + own.descendants;
  }
  return out;
}

/** One run's subtree usage. */
export function subtreeUsageOf(runs: RunLookup, order: readonly string[], runId: string): Usage & { descendants: number } {
  return subtreeUsage(runs, order).get(runId) ?? { tokensIn: 0, tokensOut: 0, costUsd: 0, descendants: 0 };
}
