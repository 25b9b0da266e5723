// The /agents pane's model: which runs are shown, in what tree order, and the header's
// totals. Pure and computed once per refresh; the pane memoizes it on the store snapshot.
// A refresh during a 1,000-child fan-out changes a few runs and leaves the rest as they
// were (the store replaces a run's object only when it changes), so what a row derives
// from its run alone (label, flags, the row itself) is kept per run object: the walk over
// every run stays, its per-run work is a lookup for the runs that did not change.
import { runName } from '../../model/run.js';
import { runCounts } from '../../runtime/runSelection.js';
import type { RuntimeState } from '../../model/state.js';
import { isTerminal, type Run } from '../../model/run.js';
import { subtreeUsage, type Usage } from '../../model/usage.js';
import { observedFlags, subtreeObserved, summarize, type ObservedFlag } from '../../model/ledger.js';

export type AgentsFilter = 'all' | 'running' | 'finished';
export const FILTERS: readonly AgentsFilter[] = ['all', 'running', 'finished'];

export interface TreeRow {
  run: Run;
  /** Nesting level in the tree (0 = a root turn or a background run). */
  level: number;
  /** "researcher#3": the run's session number is in its label, so `/subagents kill 3`
   * means the row that reads #3 whatever started since. */
  label: string;
  /** Shown only to keep a matching descendant attached to its tree (the filter excludes it). */
  context: boolean;
  /** A parent's usage with every descendant's (set only on rows that have descendants). */
  subtree?: Usage;
  /** The ⚠ flags of a finished child, from the ledger (model/ledger.ts). */
  flags?: ObservedFlag[];
}

export interface TreeTotals {
  running: number;
  queued: number;
  paused: number;
  awaiting: number;
  finished: number;
  maxDepth: number;
  tokens: number;
  costUsd: number;
  /** Child runs (not root turns) in the tree, whatever the filter. */
  children: number;
  /** Whether any shown run is still live (the elapsed clock must tick). */
  live: boolean;
  /** The status of a live root turn shown, if any: the counts above are children only, and
   * "0 running" beside a running root row read as a contradiction. */
  turn?: Run['status'];
}

export interface TreeView {
  rows: TreeRow[];
  totals: TreeTotals;
}

function matches(run: Run, filter: AgentsFilter): boolean {
  if (filter === 'all') return true;
  return filter === 'running' ? !isTerminal(run.status) : isTerminal(run.status);
}

/** Roots in list order: active first, newest first, then finished, newest first. */
function rootOrder(a: Run, b: Run): number {
  const la = isTerminal(a.status) ? 1 : 0;
  const lb = isTerminal(b.status) ? 1 : 0;
  return la - lb || b.createdAt - a.createdAt;
}

/** Children by parent in run order; a run whose parent is gone from the store still
 * deserves a row, so it counts as a root. */
function groupByParent(s: RuntimeState): { byParent: Map<string, Run[]>; roots: Run[] } {
  const byParent = new Map<string, Run[]>();
  const roots: Run[] = [];
  for (const id of s.runOrder) {
    const run = s.runs.get(id);
    if (!run) continue;
    if (run.parentRunId && s.runs.get(run.parentRunId)) {
      const list = byParent.get(run.parentRunId);
      if (list) list.push(run);
      else byParent.set(run.parentRunId, [run]);
    } else roots.push(run);
  }
  return { byParent, roots };
}

/** Bottom-up: a run is kept when it is itself within the archive window, or when something
 * under it is (so a visible child always hangs under its parent). A root turn that never
 * delegated is just a chat turn: kept only while it runs. `hit`: kept and matching the
 * filter, or above a run that does (it is shown, as context). */
function keptRuns(roots: Run[], byParent: Map<string, Run[]>, archiveMs: number, filter: AgentsFilter, now: number) {
  const kept = new Map<string, boolean>();
  const hit = new Map<string, boolean>();
  const visit = (run: Run): boolean => {
    let anyChild = false;
    let anyHit = false;
    for (const child of byParent.get(run.id) ?? []) {
      if (visit(child)) {
        anyChild = true;
        if (hit.get(child.id)) anyHit = true;
      }
    }
    const live = !isTerminal(run.status);
    const recent = live || (run.endedAt !== undefined && now - run.endedAt <= archiveMs);
    const keep = run.kind === 'root' ? anyChild || live : anyChild || recent;
    kept.set(run.id, keep);
    hit.set(run.id, keep && (matches(run, filter) || anyHit));
    return keep;
  };
  for (const root of roots) visit(root);
  return { kept, hit };
}

export function buildTree(s: RuntimeState, archiveAfterMinutes: number, filter: AgentsFilter, now = Date.now()): TreeView {
  const archiveMs = archiveAfterMinutes * 60_000;

  const { byParent, roots } = groupByParent(s);
  const { kept, hit } = keptRuns(roots, byParent, archiveMs, filter, now);

  const totals: TreeTotals = {
    running: 0,
    queued: 0,
    paused: 0,
    awaiting: 0,
    finished: 0,
    maxDepth: 0,
    tokens: 0,
    costUsd: 0,
    children: 0,
    live: false,
  };
  const children: Run[] = [];
  const rows: TreeRow[] = [];
  const sums = subtreeUsage(s.runs, s.runOrder);
  const walk = (run: Run, level: number) => {
    if (!kept.get(run.id)) return;
    totals.tokens += run.tokensIn + run.tokensOut;
    totals.costUsd += run.costUsd;
    totals.maxDepth = Math.max(totals.maxDepth, run.depth);
    if (!isTerminal(run.status)) totals.live = true;
    if (run.kind !== 'root') children.push(run);
    else if (!isTerminal(run.status)) totals.turn = run.status;
    if (hit.get(run.id)) {
      const sum = sums.get(run.id);
      const subtree = sum && sum.descendants > 0 ? sum : undefined;
      rows.push(treeRow(s, run, level, !matches(run, filter), subtree));
    }
    for (const child of byParent.get(run.id) ?? []) walk(child, level + 1);
  };
  for (const root of roots.slice().sort(rootOrder)) walk(root, 0);

  const c = runCounts(children);
  Object.assign(totals, {
    running: c.running,
    queued: c.queued,
    paused: c.paused,
    awaiting: c.awaiting,
    finished: c.finished,
    children: children.length,
  });
  return { rows, totals };
}

/** The live runs to kill for "kill everything": each live run whose parent is not live
 * (killing it cascades to the rest). `childrenOnly` leaves root turns running. */
export function topLiveRuns(s: RuntimeState, childrenOnly: boolean): Run[] {
  const out: Run[] = [];
  for (const id of s.runOrder) {
    const run = s.runs.get(id);
    if (!run || isTerminal(run.status)) continue;
    if (childrenOnly && run.kind === 'root') continue;
    const parent = run.parentRunId ? s.runs.get(run.parentRunId) : undefined;
    const parentCounts = parent && !isTerminal(parent.status) && !(childrenOnly && parent.kind === 'root');
    if (!parentCounts) out.push(run);
  }
  return out;
}

/** A run's label as its row shows it: a root turn by its alias, a child by its name and
 * session number (runSelection.runLabels), one without a number by its short id. */
function rowLabel(run: Run): string {
  if (run.kind === 'root') return run.alias;
  return run.number !== undefined ? runName(run) : run.shortId;
}

/** The last row made for each run object. A row is the same while its run object is (the
 * store replaces it on any change) and so are its place, its filter context and its
 * subtree's sums: the same object is handed back, so the row's width and its formatted line
 * (rowFormat, both kept per row or run) are not made again either. */
const rowCache = new WeakMap<Run, TreeRow>();

type SubtreeSums = Usage & { descendants: number };

/** The row's sums read the same (and count the same descendants). */
function sameSums(shown: TreeRow['subtree'], next: SubtreeSums | undefined): boolean {
  if (shown === undefined || next === undefined) return shown === next;
  const count = (shown as Partial<SubtreeSums>).descendants;
  return (
    shown.tokensIn === next.tokensIn && shown.tokensOut === next.tokensOut && shown.costUsd === next.costUsd && count === next.descendants
  );
}

function treeRow(
  s: Pick<RuntimeState, 'runs' | 'runOrder'>,
  run: Run,
  level: number,
  context: boolean,
  subtree: SubtreeSums | undefined,
): TreeRow {
  const last = rowCache.get(run);
  // A finished parent's flags read its descendants' ledgers, which change without its own
  // object: its row is made anew (a leaf's and a live run's flags are its run's alone).
  const flagsKept = !subtree || run.kind === 'root' || !isTerminal(run.status);
  if (last && flagsKept && last.level === level && last.context === context && sameSums(last.subtree, subtree)) return last;
  const row: TreeRow = { run, level, label: rowLabel(run), context, subtree, flags: rowFlags(s, run, subtree !== undefined) };
  rowCache.set(run, row);
  return row;
}

/** A finished child's flags; its subtree is summed only when it has descendants. */
function rowFlags(s: Pick<RuntimeState, 'runs' | 'runOrder'>, run: Run, hasDescendants: boolean): ObservedFlag[] | undefined {
  if (run.kind === 'root' || !isTerminal(run.status)) return undefined;
  const subtree = hasDescendants ? subtreeObserved(s.runs, s.runOrder, run.id) : summarize([run.observed]);
  const flags = observedFlags({ own: run.observed, subtree, answer: run.result, finished: true });
  return flags.length ? flags : undefined;
}
