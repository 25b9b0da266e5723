// What the operator reviews of a queued entry in /agents (issue #23): each changed file's
// diff from the entry's base to the child's final state, as the same structured display
// the tools' diffs use, and the three-way check against the caller's tree as it is now.
import type { DiffDisplay } from '../../model/toolDisplay.js';
import type { MergeReview } from '../../model/worktree.js';
import { fileDiff } from '../../text/diff.js';
import { neutralize } from '../../text/untrusted.js';
import { runGit } from './git.js';
import { checkChanges, type Change } from './threeWay.js';

async function text(repo: string, id: string | undefined): Promise<string | undefined> {
  if (!id) return undefined;
  return (await runGit(repo, ['cat-file', 'blob', id])).buffer.toString('utf8');
}

/** A child's file is outside text: its lines are neutralised before any view gets them. */
function cleaned(d: DiffDisplay): DiffDisplay {
  return { ...d, path: neutralize(d.path), hunks: d.hunks.map((h) => ({ ...h, lines: h.lines.map(neutralize) })) };
}

async function changeDiff(repo: string, change: Change): Promise<DiffDisplay> {
  const [before, after] = await Promise.all([text(repo, change.baseBlob), text(repo, change.childBlob)]);
  return cleaned(fileDiff(change.path, before, after ?? ''));
}

/** The diffs of an entry's changes and whether they would merge cleanly into `top` now. */
export async function reviewChanges(repo: string, top: string, changes: Change[]): Promise<MergeReview> {
  const files = [];
  for (const c of changes) files.push(await changeDiff(repo, c));
  const check = await checkChanges(repo, top, changes);
  return { files, conflicts: check.clean ? [] : check.conflicts.map(neutralize) };
}
