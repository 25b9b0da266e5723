// The /agents pane's review of a queued merge (issue #23): the entry's badge (files, +/−),
// the conflict check against the tree as it is now, then each file's diff drawn as the
// tools' diffs are (cards/diffLines.ts).
import { t } from '../../i18n/index.js';
import type { MergeReview, RunWorktree } from '../../model/worktree.js';
import { diffBodyLines } from '../cards/diffLines.js';
import { row, wrapBlock } from '../cards/lines.js';
import type { Line } from '../text/segments.js';
import { fileList, worktreeBadge } from '../worktrees/worktreeText.js';

/** `review` undefined: still loading; null: nothing to review (merged, dropped, no diff). */
export function reviewLines(wt: RunWorktree | undefined, review: MergeReview | null | undefined, width: number): Line[] {
  const out: Line[] = [];
  if (wt) out.push(row(width, { text: worktreeBadge(wt), color: wt.state === 'conflict' ? 'red' : 'magenta' }));
  if (review === undefined) return [...out, row(width, { text: t('worktrees:review.loading'), dim: true })];
  if (review === null) return [...out, ...wrapBlock(t('worktrees:review.none'), width, 0, { dim: true })];
  out.push(
    ...(review.conflicts.length === 0
      ? wrapBlock(t('worktrees:review.clean'), width, 0, { color: 'green' })
      : wrapBlock(t('worktrees:review.conflict', { files: fileList(review.conflicts) }), width, 0, { color: 'red' })),
  );
  for (const d of review.files) {
    out.push(
      row(width),
      row(
        width,
        { text: d.path, bold: true },
        { text: '  ' },
        { text: `+${d.added}`, color: 'green' },
        { text: ' ' },
        { text: `−${d.removed}`, color: 'red' },
        d.created && { text: ` (${t('ledger:change.created')})`, dim: true },
      ),
      ...diffBodyLines(d, width, 2),
    );
  }
  return out;
}
