// The Observed section at the top of a run's detail in /agents: what the runtime saw the run
// (with everything under it) do, its ⚠ flags with what each is based on, then each file and
// command. The same words as the cards (model/ledgerText.ts).
import { t } from '../../i18n/index.js';
import { childObserved, commandEnding } from '../../model/ledger.js';
import { flagLabel, flagReason, observedLine, oneLineCommand } from '../../model/ledgerText.js';
import type { RuntimeState } from '../../model/state.js';
import { wrapSeg } from './segments.js';
import type { Line } from '../text/segments.js';

const FILES_SHOWN = 50;

export function runObservedLines(s: Pick<RuntimeState, 'runs' | 'runOrder'>, runId: string, width: number): Line[] {
  const run = s.runs.get(runId);
  if (!run) return [];
  const o = childObserved(s.runs, s.runOrder, runId);
  const out: Line[] = [[{ text: t('ledger:observed'), bold: true }]];
  out.push(...wrapSeg(observedLine(o.summary), width, {}, '  '));
  if (run.kind !== 'root')
    for (const f of o.flags) out.push(...wrapSeg(`⚠ ${flagLabel(f)}: ${flagReason(f, o.summary)}`, width, { color: 'yellow' }, '  '));
  for (const f of o.files.slice(0, FILES_SHOWN))
    out.push([
      { text: `  ${f.path}`, bold: true },
      { text: ` ${t(`ledger:change.${f.change}`)} ` },
      { text: `+${f.added}`, color: 'green' },
      { text: ' ' },
      { text: `−${f.removed}`, color: 'red' },
    ]);
  for (const c of o.commands)
    out.push([{ text: `  $ ${oneLineCommand(c.command)}` }, { text: ` → ${commandEnding(c)}`, color: c.exitCode === 0 ? 'green' : 'red' }]);
  out.push([]);
  return out;
}
