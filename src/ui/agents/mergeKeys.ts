// The /agents pane's keys for a selected isolated child's queued merge (issue #23): apply,
// skip, keep the branch, re-run on the new tree. The runtime does the work; the flash says
// what happened.
import { t } from '../../i18n/index.js';
import { runName, type Run } from '../../model/run.js';
import type { KeyCommand } from '../../config/keySpec.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { fileList } from '../worktrees/worktreeText.js';
import type { ActionResult } from './actions.js';

export type MergeKey = 'apply' | 'skip' | 'keep' | 'rerun';

const KEYS: [KeyCommand, MergeKey][] = [
  ['agents.merge_apply', 'apply'],
  ['agents.merge_skip', 'skip'],
  ['agents.merge_keep', 'keep'],
  ['agents.merge_rerun', 'rerun'],
];

/** The run's own worktree entry still waits for the operator (the pane shows its keys). */
export function queuedMerge(run: Run): boolean {
  const wt = run.worktree;
  return !!wt && !wt.inherited && (wt.state === 'waiting' || wt.state === 'conflict' || wt.state === 'kept');
}

export function mergeKey(is: (c: KeyCommand) => boolean): MergeKey | undefined {
  return KEYS.find(([c]) => is(c))?.[1];
}

export async function mergeAction(rt: RuntimeApi, run: Run, action: MergeKey): Promise<ActionResult> {
  const name = runName(run);
  const wt = rt.store.getState().runs.get(run.id)?.worktree;
  const api = rt.worktrees;
  if (!api || !wt || !queuedMerge({ ...run, worktree: wt })) return { text: t('worktrees:keys.nothing', { run: name }), level: 'warn' };
  if (action === 'apply') {
    const state = await api.apply(run.id);
    if (state === 'merged') return { text: t('worktrees:keys.applied', { run: name }), level: 'info' };
    const now = rt.store.getState().runs.get(run.id)?.worktree;
    return { text: t('worktrees:keys.conflict', { run: name, files: fileList(now?.conflict?.files ?? now?.files) }), level: 'warn' };
  }
  if (action === 'skip') {
    await api.drop(run.id);
    return { text: t('worktrees:keys.skipped', { run: name }), level: 'info' };
  }
  if (action === 'keep') {
    await api.keep(run.id);
    return { text: t('worktrees:keys.kept', { run: name }), level: 'info' };
  }
  return (await api.rerun(run.id))
    ? { text: t('worktrees:keys.rerun', { run: name }), level: 'info' }
    : { text: t('worktrees:command.noRerun', { run: name }), level: 'warn' };
}
