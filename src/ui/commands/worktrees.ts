// /worktrees: every worktree of the session's isolated children (run, branch, status) with
// the merge queue's actions, and the leftovers of an earlier process. The actions are the
// runtime's (RuntimeApi.worktrees); this file only names runs and prints outcomes.
import { t } from '../../i18n/index.js';
import { runName, type Run } from '../../model/run.js';
import type { WorktreeApi } from '../../model/worktree.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { neutralize } from '../../text/untrusted.js';
import { fileList } from '../worktrees/worktreeText.js';
import type { SlashCommand } from './registry.js';

const ACTIONS = ['apply', 'skip', 'remove', 'keep', 'diff', 'rerun'] as const;

/** Runs that have a worktree of their own, in creation order. */
export function isolatedRuns(runtime: RuntimeApi): Run[] {
  const s = runtime.store.getState();
  return s.runOrder.map((id) => s.runs.get(id)).filter((r): r is Run => !!r?.worktree && !r.worktree.inherited);
}

/** `w1#3`, `#3`, `3` or an id prefix. */
function findRun(runs: Run[], ref: string): Run | undefined {
  const n = /^#?(\d+)$/.exec(ref)?.[1];
  return runs.find((r) => runName(r) === ref || (n !== undefined && String(r.number) === n) || (ref.length >= 4 && r.id.startsWith(ref)));
}

export function listText(runtime: RuntimeApi): string {
  const runs = isolatedRuns(runtime);
  const left = runtime.worktrees?.leftovers() ?? [];
  if (runs.length === 0 && left.length === 0) return t('worktrees:command.none');
  const lines = [t('worktrees:command.title')];
  for (const r of runs) {
    const wt = r.worktree!;
    const detail =
      wt.state === 'conflict' && wt.conflict
        ? t('worktrees:command.conflictDetail', { files: fileList(wt.conflict.files), with: wt.conflict.with })
        : wt.files?.length
          ? t('worktrees:command.detail', { count: wt.files.length, added: wt.added ?? 0, removed: wt.removed ?? 0 })
          : '';
    lines.push(t('worktrees:command.row', { run: runName(r), branch: wt.branch, state: t(`worktrees:state.${wt.state}`), detail }));
  }
  for (const l of left)
    lines.push(t('worktrees:command.leftover', { run: neutralize(l.runName), branch: neutralize(l.branch), path: neutralize(l.path) }));
  return lines.join('\n');
}

/** One action on one run; the text to print. Shared with the /agents keys. */
export async function worktreeAction(
  api: WorktreeApi,
  run: Run,
  action: (typeof ACTIONS)[number],
): Promise<{ text: string; level: 'info' | 'warn' }> {
  const name = runName(run);
  if (run.worktree?.state === 'running') return { text: t('worktrees:command.notNow', { run: name }), level: 'warn' };
  switch (action) {
    case 'apply': {
      const state = await api.apply(run.id);
      if (state === 'merged') return { text: t('worktrees:command.applied', { run: name }), level: 'info' };
      return { text: t('worktrees:command.notApplied', { run: name, state: t(`worktrees:state.${state ?? 'none'}`) }), level: 'warn' };
    }
    case 'skip':
    case 'remove':
      await api.drop(run.id);
      return { text: t('worktrees:command.skipped', { run: name }), level: 'info' };
    case 'keep':
      await api.keep(run.id);
      return { text: t('worktrees:command.kept', { run: name, branch: run.worktree?.branch ?? '' }), level: 'info' };
    case 'diff': {
      const diff = await api.diff(run.id);
      return diff ? { text: diff.trimEnd(), level: 'info' } : { text: t('worktrees:command.noDiff', { run: name }), level: 'info' };
    }
    case 'rerun':
      return (await api.rerun(run.id))
        ? { text: t('worktrees:command.rerun', { run: name }), level: 'info' }
        : { text: t('worktrees:command.noRerun', { run: name }), level: 'warn' };
  }
}

export const worktreesCommand: SlashCommand = {
  name: 'worktrees',
  summary: 'worktrees:command.summary',
  usage: '/worktrees [apply|skip|keep|diff|rerun <run>] | clean',
  maxArgs: 2,
  async run(args, ctx) {
    const api = ctx.runtime.worktrees;
    if (!api) return ctx.print(t('worktrees:command.unavailable'), 'warn');
    const [action, ref] = args;
    if (action === undefined) return ctx.print(listText(ctx.runtime));
    if (action === 'clean' && ref === undefined) {
      return ctx.print(t('worktrees:command.cleaned', { count: await api.cleanLeftovers() }));
    }
    if (!(ACTIONS as readonly string[]).includes(action) || ref === undefined) return ctx.print(t('worktrees:command.usage'), 'warn');
    const run = findRun(isolatedRuns(ctx.runtime), ref);
    if (!run) return ctx.print(t('worktrees:command.unknownRun', { ref: neutralize(ref) }), 'warn');
    const out = await worktreeAction(api, run, action as (typeof ACTIONS)[number]);
    // Read again: apply may have found a conflict since.
    const now = ctx.runtime.store.getState().runs.get(run.id)?.worktree;
    if (action === 'apply' && now?.state === 'conflict' && now.conflict) {
      return ctx.print(
        t('worktrees:command.stillConflict', { run: runName(run), files: fileList(now.conflict.files), with: now.conflict.with }),
        'warn',
      );
    }
    ctx.print(out.text, out.level);
  },
  completeArgs(args, partial, ctx) {
    if (args.length === 0) return [...ACTIONS, 'clean'].filter((a) => a.startsWith(partial));
    if (args.length === 1)
      return isolatedRuns(ctx.runtime)
        .map(runName)
        .filter((n) => n.startsWith(partial));
    return [];
  },
};

/** The start-up notice when an earlier process left worktrees behind (none: no notice). */
export function leftoverNotices(runtime: RuntimeApi): string[] {
  const left = runtime.worktrees?.leftovers() ?? [];
  if (left.length === 0) return [];
  const list = left.map((l) => `${neutralize(l.branch)} (${neutralize(l.path)})`).join(', ');
  return [t('worktrees:command.leftovers', { count: left.length, list })];
}
