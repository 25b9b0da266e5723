// /diff's list: every file arbor's tools changed in a session, one row per file, from the
// runs' ledgers (never from model text): its path, the lines added and removed over all its
// changes, which runs changed it (their stable names), when it last changed, and its
// content before the session's first change when that was kept.
import type { FileBase, FileEffect } from './ledger.js';
import type { DiffDisplay } from './toolDisplay.js';
import { runName, type Run } from './run.js';

export interface SessionChange {
  path: string;
  added: number;
  removed: number;
  /** Stable run names (`researcher#3`), first changer first. */
  runs: string[];
  /** The last change (ms since the epoch), when recorded. */
  lastAt?: number;
  /** Created by the session (it did not exist before its first change). */
  created: boolean;
  /** Deleted by its last change. */
  deleted: boolean;
  /** Its content before the session's first change; absent: none was recorded. */
  base?: FileBase;
}

/** One file's diff as /diff opens it (runtime/ledger/sessionDiff.ts makes it). */
export type SessionFileDiff =
  | { kind: 'diff'; display: DiffDisplay }
  /** The file is gone; the diff removes what it held. */
  | { kind: 'deleted'; display?: DiffDisplay }
  /** No base was kept (too large, binary, unreadable, over budget, or none recorded). */
  | { kind: 'no_base'; reason: NonNullable<FileBase['notKept']> | 'none'; added: number; removed: number }
  /** The file now is what it was before (or cannot be read now). */
  | { kind: 'unchanged' }
  | { kind: 'unreadable'; added: number; removed: number };

/** Rows for `runs` (live and recorded, any order), most recently changed first. */
export function sessionChanges(runs: readonly Run[]): SessionChange[] {
  const sorted = [...runs].sort((a, b) => a.createdAt - b.createdAt);
  const byPath = new Map<string, SessionChange & { firstAt: number }>();
  const seen = new Set<string>();
  const concurrent = new Set<string>();
  for (const run of sorted) {
    if (seen.has(run.id)) continue;
    seen.add(run.id);
    const l = run.observed;
    if (!l) continue;
    const name = runName(run);
    for (const f of l.files) {
      // Overlapping commands that all saw one change recorded it each: count it once.
      const key = `${f.path}\u0000${f.change}\u0000${f.added}\u0000${f.removed}\u0000${f.diff ?? ''}`;
      if (f.concurrent && concurrent.has(key)) continue;
      if (f.concurrent) concurrent.add(key);
      add(byPath, f, name, run.createdAt);
    }
    for (const b of l.bases ?? []) {
      const row = byPath.get(b.path);
      // The earliest base is the session's: a resumed session may record a second one.
      if (row && (!row.base || b.at < row.base.at)) row.base = b;
    }
  }
  for (const row of byPath.values()) if (row.base) row.created = !row.base.existed;
  return [...byPath.values()]
    .sort((a, b) => (b.lastAt ?? 0) - (a.lastAt ?? 0) || a.path.localeCompare(b.path))
    .map(({ firstAt: _firstAt, ...row }) => row);
}

function add(byPath: Map<string, SessionChange & { firstAt: number }>, f: FileEffect, name: string, runAt: number): void {
  const at = f.at ?? runAt;
  let row = byPath.get(f.path);
  if (!row) {
    row = { path: f.path, added: 0, removed: 0, runs: [], created: f.change === 'created', deleted: false, firstAt: at };
    byPath.set(f.path, row);
  }
  row.added += f.added;
  row.removed += f.removed;
  if (!row.runs.includes(name)) row.runs.push(name);
  row.deleted = f.change === 'deleted';
  if (f.at !== undefined && (row.lastAt === undefined || f.at >= row.lastAt)) row.lastAt = f.at;
}
