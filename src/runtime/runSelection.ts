// How runs are listed and named for people: the order /subagents and the /agents pane use,
// stable labels ("researcher#2", the number is the run's for the whole session), and
// resolving what a user typed (last, a number, id prefix, label).
import { t } from '../i18n/index.js';
import { isTerminal, runName, type Run, type RuntimeState } from './types.js';

/** "<alias>#<n>" for every child: n is its session number (Run.number), which never moves. */
export function runLabels(s: RuntimeState): Map<string, string> {
  const labels = new Map<string, string>();
  for (const id of s.runOrder) {
    const run = s.runs.get(id);
    if (!run || run.kind === 'root') continue;
    labels.set(id, run.number !== undefined ? runName(run) : run.shortId);
  }
  return labels;
}

export function runLabel(s: RuntimeState, runId: string): string {
  const run = s.runs.get(runId);
  if (run?.kind === 'root') return t('agents:numbers.turnLabel', { alias: run.alias });
  return run?.number !== undefined ? runName(run) : runId.slice(0, 8);
}

/** A run's place in its tree, root first: ["main", "researcher#2", "researcher#3"]. */
export function runPath(s: RuntimeState, runId: string): string[] {
  const labels = runLabels(s);
  const out: string[] = [];
  for (let id: string | undefined = runId; id !== undefined && out.length < 64;) {
    const run: Run | undefined = s.runs.get(id);
    if (!run) break;
    out.unshift(run.kind === 'root' ? run.alias : (labels.get(id) ?? run.shortId));
    id = run.parentRunId;
  }
  return out;
}

/** Child runs in list order: active first (newest first), then those that finished within
 * `archiveAfterMinutes` of now (newest first). Archiving counts from when a run ENDED. */
export function listedRuns(s: RuntimeState, archiveAfterMinutes: number, now = Date.now()): Run[] {
  const active: Run[] = [];
  const finished: Run[] = [];
  const archiveMs = archiveAfterMinutes * 60_000;
  for (let i = s.runOrder.length - 1; i >= 0; i--) {
    const run = s.runs.get(s.runOrder[i]);
    if (!run || run.kind === 'root') continue;
    if (!isTerminal(run.status)) active.push(run);
    else if (run.endedAt !== undefined && now - run.endedAt <= archiveMs) finished.push(run);
  }
  return [...active, ...finished];
}

export type RunRefResult =
  { ok: true; run: Run } | { ok: false; reason: 'empty' | 'unknown' | 'ambiguous'; ref: string; candidates: string[] };

/** Resolves what a user typed: `last` (the newest child); a number or `#n` (the run's
 * session number, the n of researcher#n: it names that run whatever started since); a
 * run-id prefix; a label (exact, then prefix). Numbers and exact labels reach any child of
 * the session; prefixes only those in `list`. */
export function resolveRunRef(s: RuntimeState, list: Run[], ref: string): RunRefResult {
  const r = ref.trim().replace(/^#(?=\d+$)/, '');
  if (!r) return { ok: false, reason: 'empty', ref, candidates: [] };
  if (r === 'last') {
    // The most recently created child, wherever it sits in the list.
    const newest = [...list].sort((a, b) => b.createdAt - a.createdAt)[0];
    return newest ? { ok: true, run: newest } : { ok: false, reason: 'unknown', ref, candidates: [] };
  }
  if (/^\d+$/.test(r)) {
    const run = byNumber(s, Number(r));
    return run ? { ok: true, run } : { ok: false, reason: 'unknown', ref, candidates: [] };
  }
  const numbered = /^(.+)#(\d+)$/.exec(r);
  if (numbered) {
    const run = byNumber(s, Number(numbered[2]));
    if (run && run.alias.toLowerCase() === numbered[1].toLowerCase()) return { ok: true, run };
  }
  const labels = runLabels(s);
  const lower = r.toLowerCase();
  const exactLabel = list.filter((run) => labels.get(run.id)?.toLowerCase() === lower);
  if (exactLabel.length === 1) return { ok: true, run: exactLabel[0] };
  const byId = list.filter((run) => run.id.toLowerCase().startsWith(lower));
  if (byId.length === 1) return { ok: true, run: byId[0] };
  if (byId.length > 1) return { ok: false, reason: 'ambiguous', ref, candidates: byId.map((x) => labels.get(x.id) ?? x.shortId) };
  const byLabelPrefix = list.filter((run) => labels.get(run.id)?.toLowerCase().startsWith(lower));
  if (byLabelPrefix.length === 1) return { ok: true, run: byLabelPrefix[0] };
  if (byLabelPrefix.length > 1) {
    return { ok: false, reason: 'ambiguous', ref, candidates: byLabelPrefix.map((x) => labels.get(x.id) ?? x.shortId) };
  }
  return { ok: false, reason: 'unknown', ref, candidates: [] };
}

function byNumber(s: RuntimeState, n: number): Run | undefined {
  for (const id of s.runOrder) {
    const run = s.runs.get(id);
    if (run && run.kind !== 'root' && run.number === n) return run;
  }
  return undefined;
}

/** Counts for headers and status lines. */
export function runCounts(runs: Run[]): { running: number; queued: number; paused: number; awaiting: number; finished: number } {
  const c = { running: 0, queued: 0, paused: 0, awaiting: 0, finished: 0 };
  for (const r of runs) {
    // A run still finishing its step before a pause holds is still running.
    if (r.status === 'running' || r.status === 'pausing') c.running++;
    else if (r.status === 'queued') c.queued++;
    else if (r.status === 'paused') c.paused++;
    else if (r.status === 'awaiting_approval') c.awaiting++;
    else c.finished++;
  }
  return c;
}
