// An isolated child's worktree as every layer reads it (issue #23): where it is, its branch
// and what happened to its changes. Plain data on the run, so cards, /agents, /subagents
// info, the session file, the trace log and the tree export all carry it.
import type { DiffDisplay } from './toolDisplay.js';

/** running: the child works in it; merged: its changes are in the caller's tree; waiting:
 * queued for the operator; conflict: queued, its three-way check failed; kept: not merged
 * (manual mode, a killed/failed child, or the operator kept the branch); none: it changed
 * nothing; dropped: the operator skipped it (worktree and branch removed). */
export type WorktreeState = 'running' | 'merged' | 'waiting' | 'conflict' | 'kept' | 'none' | 'dropped';

export interface WorktreeConflict {
  files: string[];
  /** runName of the run whose change it conflicts with (the caller itself, or an earlier merged child). */
  with: string;
}

export interface RunWorktree {
  branch: string;
  path: string;
  state: WorktreeState;
  /** Files the child changed (from its base to its final state), once it ended. */
  files?: string[];
  added?: number;
  removed?: number;
  conflict?: WorktreeConflict;
  /** Inherited from an isolated ancestor: the run shares that worktree (no entry of its own). */
  inherited?: boolean;
}

/** States whose entry still waits in the merge queue. */
export const QUEUED_STATES: ReadonlySet<WorktreeState> = new Set(['waiting', 'conflict']);

/** A worktree an earlier arbor process made and never removed (it crashed or was killed). */
export interface WorktreeLeftover {
  repo: string;
  path: string;
  branch: string;
  runName: string;
  session: string;
}

/** A queued entry as the operator reviews it: each changed file's diff (base to the child's
 * final state) and the files that would conflict with the caller's tree now (none: clean). */
export interface MergeReview {
  files: DiffDisplay[];
  conflicts: string[];
}

/** The operator's side of the merge queue (RuntimeApi.worktrees): every call names a run. */
export interface WorktreeApi {
  /** Applies a queued entry if its three-way check is clean now; the entry's state after. */
  apply(runId: string): Promise<WorktreeState | undefined>;
  /** Skips an entry: its worktree and branch are removed. */
  drop(runId: string): Promise<boolean>;
  /** Keeps the entry's branch (the worktree folder goes). */
  keep(runId: string): Promise<boolean>;
  /** The entry's diff from its base to its final state. */
  diff(runId: string): Promise<string | undefined>;
  /** The entry's per-file diffs and its three-way check against the tree as it is now. */
  review(runId: string): Promise<MergeReview | undefined>;
  /** A new child with the same task in a worktree of the current tree; the old entry is
   * dropped. False when the run cannot be re-run (not an isolated child of this session). */
  rerun(runId: string): Promise<boolean>;
  /** Worktrees left by an earlier process, found at start. */
  leftovers(): WorktreeLeftover[];
  /** Removes the leftovers (worktree, branch, `git worktree prune`); how many. */
  cleanLeftovers(): Promise<number>;
}
