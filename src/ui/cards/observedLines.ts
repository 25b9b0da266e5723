// The Observed section of a spawn_subagent / delegate card: what the runtime saw each child
// (with everything under it) do, beside what it says. Read from the call's item (recorded
// when the call returned), so live and restored cards show the same thing.
import { t } from '../../i18n/index.js';
import type { ChildObserved } from '../../model/ledger.js';
import { commandEnding } from '../../model/ledger.js';
import { flagLabel, flagReason, flagsText, observedLine, oneLineCommand } from '../../model/ledgerText.js';
import type { ToolTranscriptItem } from '../../model/transcript.js';
import { row, wrapBlock } from './lines.js';
import type { Line, Seg } from '../text/segments.js';

/** Diff lines shown per file in the expanded card; the viewer and the export have them all. */
const DIFF_LINES_SHOWN = 40;

/** The ⚠ marks of the call's children, for the collapsed status line. */
export function flagSegs(item: ToolTranscriptItem): Seg[] {
  const text = flagsText((item.observed ?? []).flatMap((o) => o.flags));
  return text
    ? [
        { text: ' · ', dim: true },
        { text, color: 'yellow' },
      ]
    : [];
}

function childSection(o: ChildObserved, width: number, many: boolean): Line[] {
  const out: Line[] = [];
  const indent = many ? 6 : 4;
  if (many) out.push(row(width, { text: '    ── ', dim: true }, { text: o.alias, bold: true, color: 'cyan' }));
  out.push(...wrapBlock(observedLine(o.summary), width, indent));
  for (const f of o.flags) out.push(...wrapBlock(`⚠ ${flagLabel(f)}: ${flagReason(f, o.summary)}`, width, indent, { color: 'yellow' }));
  for (const f of o.files) {
    out.push(
      row(
        width,
        { text: ' '.repeat(indent) },
        { text: f.path, bold: true },
        { text: ` ${t(`ledger:change.${f.change}`)} ` },
        { text: `+${f.added}`, color: 'green' },
        { text: ' ' },
        { text: `−${f.removed}`, color: 'red' },
        f.concurrent ? { text: ` (${t('ledger:concurrent')})`, dim: true } : undefined,
      ),
    );
    const lines = (f.diff ?? '').split('\n').filter((l) => l !== '');
    for (const l of lines.slice(0, DIFF_LINES_SHOWN)) {
      const color = l.startsWith('+') ? 'green' : l.startsWith('-') ? 'red' : undefined;
      out.push(row(width, { text: ' '.repeat(indent + 2) }, { text: l, color, dim: color === undefined }));
    }
    if (f.diffCut || lines.length > DIFF_LINES_SHOWN) out.push(...wrapBlock(t('ledger:diffCut'), width, indent + 2, { dim: true }));
  }
  for (const c of o.commands) {
    const failed = c.exitCode !== 0;
    out.push(
      row(
        width,
        { text: ' '.repeat(indent) },
        { text: `$ ${oneLineCommand(c.command)}` },
        { text: ` → ${commandEnding(c)}`, color: failed ? 'red' : 'green' },
        { text: ` (${(c.durationMs / 1000).toFixed(1)}s)`, dim: true },
      ),
    );
  }
  return out;
}

/** The expanded card's Observed section (empty when the call recorded none). */
export function observedSection(item: ToolTranscriptItem, width: number): Line[] {
  const children = item.observed ?? [];
  if (children.length === 0) return [];
  const out: Line[] = [row(width, { text: '  ' }, { text: t('ledger:observed'), bold: true })];
  for (const o of children) out.push(...childSection(o, width, children.length > 1));
  return out;
}
