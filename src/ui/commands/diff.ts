// /diff: every file arbor's tools changed in this session, and any of them (Enter, or
// `/diff <path>`) as a diff against its content before the session's first change. The
// list comes from the runs' ledgers (runtime/ledger/), never from model text.
import { t } from '../../i18n/index.js';
import type { SessionChange } from '../../model/sessionChanges.js';
import { neutralize } from '../../text/untrusted.js';
import { diffPane } from './DiffPane.js';
import type { SlashCommand } from './registry.js';

/** The row `arg` names: its path exactly, else the one path that ends with it. */
export function findChange(changes: readonly SessionChange[], arg: string): number | undefined {
  const exact = changes.findIndex((c) => c.path === arg);
  if (exact >= 0) return exact;
  const ends = changes.map((c, i) => (c.path.endsWith(`/${arg}`) ? i : -1)).filter((i) => i >= 0);
  return ends.length === 1 ? ends[0] : undefined;
}

export const diffCommand: SlashCommand = {
  name: 'diff',
  summary: 'ledger:diff.summary',
  usage: '/diff [path]',
  maxArgs: 1,
  completeArgs: (args, _partial, { runtime }) => (args.length === 0 ? runtime.sessionChanges().map((c) => c.path) : []),
  run(args, ctx) {
    let changes: SessionChange[];
    try {
      changes = ctx.runtime.sessionChanges();
    } catch (err) {
      ctx.print(t('ledger:diff.failed', { error: neutralize((err as Error).message) }), 'error');
      return;
    }
    if (changes.length === 0) {
      ctx.print(t('ledger:diff.none'));
      return;
    }
    if (args[0] === undefined) {
      ctx.openPane(diffPane(changes));
      return;
    }
    const at = findChange(changes, args[0]);
    if (at === undefined) {
      ctx.print(t('ledger:diff.noSuchFile', { path: neutralize(args[0]) }), 'error');
      return;
    }
    ctx.openPane(diffPane(changes, at));
  },
};
