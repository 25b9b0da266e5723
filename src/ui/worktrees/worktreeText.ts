// How an isolated run's worktree reads on screen: the /agents row badge, the /subagents
// info field and the /worktrees rows. File names come from a child's tree: they were
// neutralised where they entered the store (runtime/worktrees/queue.ts).
import { t } from '../../i18n/index.js';
import type { RunWorktree } from '../../model/worktree.js';

const FILES_SHOWN = 3;

export function fileList(files: string[] | undefined): string {
  const list = files ?? [];
  const shown = list.slice(0, FILES_SHOWN).join(', ');
  return list.length > FILES_SHOWN ? `${shown} +${list.length - FILES_SHOWN}` : shown;
}

/** The row badge: `⎇ worktree`, `⇢ merge waiting: files +a −r`, a conflict, the outcome. */
export function worktreeBadge(wt: RunWorktree): string {
  if (wt.inherited) return t('worktrees:badge.inherited');
  const values = {
    files: fileList(wt.conflict?.files ?? wt.files),
    added: wt.added ?? 0,
    removed: wt.removed ?? 0,
    with: wt.conflict?.with ?? '',
    branch: wt.branch,
  };
  return t(`worktrees:badge.${wt.state}`, values);
}

/** One line for /subagents info and the card: branch, state, where. */
export function worktreeInfo(wt: RunWorktree): string {
  return `${t('worktrees:info', { branch: wt.branch, state: t(`worktrees:state.${wt.state}`), path: wt.path })}${
    wt.state === 'waiting' || wt.state === 'conflict' || wt.state === 'merged' ? ` — ${worktreeBadge(wt)}` : ''
  }`;
}
