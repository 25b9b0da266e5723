// /diff's data: the files arbor's tools changed in this session (live runs over what the
// session file recorded), and one file's diff from its content before the session's first
// change to its content on disk now. What is shown of file text is neutralised here.
import { readBase } from './fileBase.js';
import type { Run } from '../../model/run.js';
import { sessionChanges, type SessionChange, type SessionFileDiff } from '../../model/sessionChanges.js';

import { fileDiff } from '../../text/diff.js';
import { neutralizeDeep } from '../../text/untrusted.js';

/** Live runs win over their recorded copies. */
export function mergeRuns(recorded: readonly Run[], live: readonly Run[]): Run[] {
  const ids = new Set(live.map((r) => r.id));
  return [...recorded.filter((r) => !ids.has(r.id)), ...live];
}

export function changesOf(runs: readonly Run[]): SessionChange[] {
  return sessionChanges(runs);
}

export async function diffOfChange(change: SessionChange): Promise<SessionFileDiff> {
  const base = change.base;
  if (!base || (base.existed && base.content === undefined))
    return { kind: 'no_base', reason: base?.notKept ?? 'none', added: change.added, removed: change.removed };
  const now = await readBase(base.abs);
  const before = base.existed ? base.content : undefined;
  if (!now.existed) {
    if (before === undefined) return { kind: 'unchanged' };
    return { kind: 'deleted', display: neutralizeDeep(fileDiff(change.path, before, '')) };
  }
  if (now.content === undefined) return { kind: 'unreadable', added: change.added, removed: change.removed };
  if (before !== undefined && before === now.content) return { kind: 'unchanged' };
  return { kind: 'diff', display: neutralizeDeep(fileDiff(change.path, before, now.content)) };
}
