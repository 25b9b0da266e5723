// The session's worktrees and merge queue (issue #23). An isolated child gets a worktree on
// `arbor/<session>/<run number>` from a snapshot of its caller's current tree; when it
// completes, its changes enter the queue in completion order (one at a time), are checked
// three ways against the caller's tree as it is then, and are applied, held for the
// operator, or kept on the branch ([delegation] merge). Only worktrees and branches this
// queue created are ever removed.
import { existsSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { MergeMode } from '../../config/types.js';
import { neutralize } from '../../text/untrusted.js';
import { makePrivateDir, writePrivate } from '../../persistence/privateFs.js';
import {
  WORKTREE_CONFLICT,
  WORKTREE_MANUAL,
  WORKTREE_MERGED,
  WORKTREE_NEEDS_GIT,
  WORKTREE_NO_CHANGES,
  WORKTREE_UNFINISHED,
  WORKTREE_WAITING,
} from '../../tools/worktreeNotes.js';
import type { MergeReview, RunWorktree, WorktreeState } from '../../model/worktree.js';
import { runName, type Run } from '../../model/run.js';
import type { RuntimeStore } from '../store.js';
import { gitText, runGit, workTreeTop } from './git.js';
import type { Place } from './place.js';
import { snapshotCommit, stateTree } from './snapshot.js';
import { applyPlans, changesBetween, checkChanges, diffBetween, type Change } from './threeWay.js';
import { reviewChanges } from './review.js';

export const WORKTREES_DIR = 'worktrees';
export const BRANCH_PREFIX = 'arbor/';

export interface Manifest {
  repo: string;
  path: string;
  branch: string;
  session: string;
  runId: string;
  runName: string;
  createdAt: number;
}

interface Entry extends Manifest {
  /** The caller's tree top: where the entry's changes are merged. */
  callerTop: string;
  callerRunId?: string;
  base: string;
  state: WorktreeState;
  changes: Change[];
  removedDir?: boolean;
}

export interface WorktreeDeps {
  home: string;
  store: RuntimeStore;
  mergeMode(): MergeMode;
  /** A run's worktree reached a new state after it ended (trace log, session file). */
  onOutcome?(run: Run): void;
}

/** Where the caller works inside its tree (the child works at the same place in its own). */
function relativeCwd(top: string, cwd: string): string {
  try {
    return relative(top, realpathSync(cwd));
  } catch {
    return '';
  }
}

/** The session's short name in branches and folder names. */
const shortSession = (id: string) => id.replace(/[^A-Za-z0-9]/g, '').slice(0, 8) || 'session';

export class WorktreeQueue {
  private readonly places = new Map<string, Place & { inherited: boolean }>();
  private readonly entries = new Map<string, Entry>();
  /** Every merged entry's files per caller tree, newest last: who changed a line first. */
  private readonly merged = new Map<string, { path: string; run: string; at: number }[]>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: WorktreeDeps) {}

  get dir(): string {
    return join(this.deps.home, WORKTREES_DIR);
  }

  placeOf(runId: string): (Place & { inherited: boolean }) | undefined {
    return this.places.get(runId);
  }

  /** A child that did not ask for its own worktree works in its caller's, if it has one. */
  inherit(childId: string, parentId: string | undefined): void {
    const parent = parentId ? this.places.get(parentId) : undefined;
    if (!parent) return;
    this.places.set(childId, { ...parent, inherited: true });
    const own = this.entries.get(parentId!) ?? [...this.entries.values()].find((e) => e.path === parent.top);
    if (own) this.setRun(childId, { branch: own.branch, path: own.path, state: 'running', inherited: true });
  }

  /** Creates the child's worktree from its caller's current state. Throws the literal
   * refusal outside a git work tree. */
  async create(run: Run, callerCwd: string, callerRunId: string | undefined): Promise<Place> {
    const top = await workTreeTop(callerCwd);
    if (!top) throw new Error(WORKTREE_NEEDS_GIT(callerCwd));
    const session = shortSession(this.deps.store.getState().sessionId);
    const name = runName(run);
    const n = run.number ?? run.shortId;
    const branch = `${BRANCH_PREFIX}${session}/${n}`;
    makePrivateDir(this.dir);
    const path = join(this.dir, `${session}-${n}`);
    const base = await snapshotCommit(top, `arbor: ${name} starts from this state`);
    await runGit(top, ['worktree', 'add', '--quiet', '-b', branch, path, base]);
    const manifest: Manifest = {
      repo: top,
      path,
      branch,
      session: this.deps.store.getState().sessionId,
      runId: run.id,
      runName: name,
      createdAt: Date.now(),
    };
    writePrivate(`${path}.json`, JSON.stringify(manifest));
    this.entries.set(run.id, { ...manifest, callerTop: top, callerRunId, base, state: 'running', changes: [] });
    const rel = relativeCwd(top, callerCwd);
    const sources = [...(callerRunId ? (this.places.get(callerRunId)?.sources ?? []) : []), top];
    const place = { cwd: join(path, rel), top: path, sources, fence: this.dir, inherited: false };
    this.places.set(run.id, place);
    this.setRun(run.id, { branch, path, state: 'running' });
    return place;
  }

  /** The child ended: its changes enter the queue (completed) or stay on its branch.
   * Returns the note its tool result ends with. */
  finish(runId: string, completed: boolean): Promise<string | undefined> {
    const entry = this.entries.get(runId);
    if (!entry) return Promise.resolve(undefined);
    const step = this.chain.then(() => this.settle(entry, completed));
    this.chain = step.catch(() => undefined);
    return step;
  }

  private async settle(entry: Entry, completed: boolean): Promise<string | undefined> {
    const final = await stateTree(entry.path);
    const set = await changesBetween(entry.callerTop, `${entry.base}^{tree}`, final);
    entry.changes = set.changes;
    const files = set.changes.map((c) => neutralize(c.path));
    const counts = { files, added: set.added, removed: set.removed };
    // Whatever is not merged now stays on the branch (a merged entry's branch goes anyway).
    const keep = () => this.keepOnBranch(entry, final);
    // Never merged: the worktree stays (its branch listed) and the parent learns where.
    if (!completed) {
      if (set.changes.length > 0) await keep();
      this.mark(entry, 'kept', counts);
      return set.changes.length > 0 ? WORKTREE_UNFINISHED(entry.branch) : WORKTREE_NO_CHANGES;
    }
    if (set.changes.length === 0) {
      await this.removeEntry(entry);
      this.mark(entry, 'none', counts);
      return WORKTREE_NO_CHANGES;
    }
    const mode = this.deps.mergeMode();
    if (mode === 'manual') {
      await keep();
      this.mark(entry, 'kept', counts);
      return WORKTREE_MANUAL(entry.branch);
    }
    const check = await checkChanges(entry.callerTop, entry.callerTop, entry.changes);
    if (!check.clean) {
      await keep();
      return this.conflicted(entry, check.conflicts, counts);
    }
    if (mode === 'ask') {
      await keep();
      this.mark(entry, 'waiting', counts);
      return WORKTREE_WAITING(files.length);
    }
    await applyPlans(entry.callerTop, check.plans);
    await this.mergedDone(entry, counts);
    return WORKTREE_MERGED(files.length);
  }

  private conflicted(entry: Entry, conflicts: string[], counts: Pick<RunWorktree, 'files' | 'added' | 'removed'>): string {
    const log = this.merged.get(entry.callerTop) ?? [];
    const hit = [...log].reverse().find((m) => conflicts.includes(m.path) && m.at >= entry.createdAt);
    const caller = entry.callerRunId ? this.deps.store.getState().runs.get(entry.callerRunId) : undefined;
    const other = hit?.run ?? (caller ? runName(caller) : 'the caller');
    const shown = conflicts.map(neutralize);
    this.mark(entry, 'conflict', { ...counts, conflict: { files: shown, with: other } });
    return WORKTREE_CONFLICT(shown, other, entry.branch);
  }

  private async mergedDone(entry: Entry, counts: Pick<RunWorktree, 'files' | 'added' | 'removed'>): Promise<void> {
    const log = this.merged.get(entry.callerTop) ?? [];
    const at = Date.now();
    for (const c of entry.changes) log.push({ path: c.path, run: entry.runName, at });
    this.merged.set(entry.callerTop, log);
    await this.removeEntry(entry);
    this.mark(entry, 'merged', counts);
  }

  /** The operator applies a queued entry: checked again against the tree as it is now. */
  apply(runId: string): Promise<WorktreeState | undefined> {
    const entry = this.entries.get(runId);
    if (!entry || !['waiting', 'conflict', 'kept'].includes(entry.state) || entry.changes.length === 0)
      return Promise.resolve(entry?.state);
    const step = this.chain.then(async () => {
      const counts = this.countsOf(runId);
      const check = await checkChanges(entry.callerTop, entry.callerTop, entry.changes);
      if (!check.clean) {
        this.conflicted(entry, check.conflicts, counts);
        return entry.state;
      }
      await applyPlans(entry.callerTop, check.plans);
      await this.mergedDone(entry, counts);
      return entry.state;
    });
    this.chain = step.catch(() => undefined);
    return step;
  }

  /** The operator skips (drops) an entry: its worktree and branch go. */
  async drop(runId: string): Promise<boolean> {
    const entry = this.entries.get(runId);
    if (!entry || entry.state === 'running') return false;
    await this.removeEntry(entry);
    this.mark(entry, 'dropped', this.countsOf(runId));
    return true;
  }

  /** The operator keeps the branch: the worktree folder goes, the branch stays. */
  async keep(runId: string): Promise<boolean> {
    const entry = this.entries.get(runId);
    if (!entry || entry.state === 'running') return false;
    await this.removeDir(entry);
    this.mark(entry, 'kept', this.countsOf(runId));
    return true;
  }

  /** The entry's diff from its base to its final state, for the operator. */
  async diffOf(runId: string): Promise<string | undefined> {
    const entry = this.entries.get(runId);
    if (!entry || entry.changes.length === 0) return undefined;
    const head = await gitText(entry.callerTop, ['rev-parse', '--verify', '-q', `refs/heads/${entry.branch}`]).catch(() => '');
    if (!head) return undefined;
    return neutralize(await diffBetween(entry.callerTop, entry.base, head));
  }

  /** A queued entry's per-file diffs and its check against the caller's tree now. */
  async reviewOf(runId: string): Promise<MergeReview | undefined> {
    const entry = this.entries.get(runId);
    if (!entry || entry.changes.length === 0 || entry.state === 'merged' || entry.state === 'dropped') return undefined;
    return reviewChanges(entry.callerTop, entry.callerTop, entry.changes);
  }

  /** The caller's tree of an entry (a re-run starts there). */
  callerOf(runId: string): { callerRunId?: string; callerTop: string } | undefined {
    const entry = this.entries.get(runId);
    return entry && { callerRunId: entry.callerRunId, callerTop: entry.callerTop };
  }

  runIds(): string[] {
    return [...this.entries.keys()];
  }

  /** Every worktree this session still holds: removed at exit only when nothing waits. */
  live(): Manifest[] {
    return [...this.entries.values()].filter((e) => !e.removedDir);
  }

  private countsOf(runId: string): Pick<RunWorktree, 'files' | 'added' | 'removed'> {
    const wt = this.deps.store.getState().runs.get(runId)?.worktree;
    return { files: wt?.files, added: wt?.added, removed: wt?.removed };
  }

  /** The branch keeps the child's final state as a commit (committed or not, it was in the
   * worktree): a kept or conflicting entry loses nothing when its folder goes. */
  private async keepOnBranch(entry: Entry, final: string): Promise<void> {
    const ref = `refs/heads/${entry.branch}`;
    const head = await gitText(entry.path, ['rev-parse', '--verify', '-q', ref]);
    const headTree = await gitText(entry.path, ['rev-parse', `${head}^{tree}`]);
    if (headTree === final) return;
    const commit = await gitText(entry.path, ['commit-tree', final, '-p', head, '-m', `arbor: ${entry.runName}'s changes`]);
    await gitText(entry.path, ['update-ref', ref, commit, head]);
  }

  private async removeDir(entry: Entry): Promise<void> {
    if (entry.removedDir) return;
    // Only our own: a folder under $ARBOR_HOME/worktrees on an arbor/ branch.
    if (!entry.branch.startsWith(BRANCH_PREFIX) || relative(this.dir, entry.path).startsWith('..')) return;
    if (existsSync(entry.path)) await runGit(entry.callerTop, ['worktree', 'remove', '--force', entry.path]).catch(() => undefined);
    // `worktree remove` took its admin files too; a folder it could not remove is pruned.
    if (existsSync(entry.path)) {
      await rm(entry.path, { recursive: true, force: true });
      await runGit(entry.callerTop, ['worktree', 'prune']).catch(() => undefined);
    }
    entry.removedDir = true;
  }

  private async removeEntry(entry: Entry): Promise<void> {
    await this.removeDir(entry);
    if (!entry.branch.startsWith(BRANCH_PREFIX)) return;
    await runGit(entry.callerTop, ['branch', '-D', '--quiet', entry.branch]).catch(() => undefined);
    await rm(`${entry.path}.json`, { force: true });
  }

  private mark(entry: Entry, state: WorktreeState, extra: Partial<RunWorktree>): void {
    entry.state = state;
    this.setRun(entry.runId, { branch: entry.branch, path: entry.path, state, ...extra });
    const run = this.deps.store.getState().runs.get(entry.runId);
    if (run) this.deps.onOutcome?.(run);
  }

  /** The run's worktree field, even on a run that has ended (its merge comes after). */
  private setRun(runId: string, worktree: RunWorktree): void {
    this.deps.store.setState((s) => {
      const run = s.runs.get(runId);
      return run ? { runs: s.runs.with(runId, { ...run, worktree }) } : s;
    });
  }
}
