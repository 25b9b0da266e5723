// A file change as card lines, from the result's diff display (model/toolDisplay.ts):
// the one-line summary a collapsed card and headless print (`write_file src/a.ts +12 −3`)
// and, expanded, the hunks with their old and new line numbers, added lines green and
// removed ones red.
import { t } from '../../i18n/index.js';
import type { DiffDisplay } from '../../model/toolDisplay.js';
import type { ToolTranscriptItem } from '../../model/transcript.js';
import { diffCounts, hunkRows, type DiffRow } from '../../text/diff.js';
import { sanitizeLine } from '../text/width.js';
import { row, wrapBlock } from './lines.js';
import type { Line, Seg } from '../text/segments.js';

export function diffOf(item: ToolTranscriptItem): DiffDisplay | undefined {
  return item.display?.kind === 'diff' ? item.display : undefined;
}

/** "src/a.ts +12 −3" as segments: the path, the added count green, the removed count red. */
export function diffSummarySegs(d: DiffDisplay): Seg[] {
  const [added, removed] = diffCounts(d).split(' ');
  return [
    { text: ` ${d.path} `, dim: true },
    { text: added, color: 'green' },
    { text: ' ' },
    { text: removed, color: 'red' },
    ...(d.created ? [{ text: ` (${t('transcript:diff.created')})`, dim: true }] : []),
  ];
}

const ROW_STYLE: Record<DiffRow['kind'], { mark: string; color?: string; dim?: boolean }> = {
  add: { mark: '+', color: 'green' },
  remove: { mark: '-', color: 'red' },
  context: { mark: ' ', dim: true },
  note: { mark: '\\', dim: true },
};

/** The hunks, each row numbered on the side(s) it is on. */
export function diffBodyLines(d: DiffDisplay, width: number, indent = 4): Line[] {
  const last = d.hunks.reduce((n, h) => Math.max(n, h.oldStart + h.oldLines, h.newStart + h.newLines), 1);
  const w = String(last).length;
  const num = (n: number | undefined) => (n === undefined ? ' '.repeat(w) : String(n).padStart(w));
  const out: Line[] = [];
  for (const h of d.hunks) {
    out.push(
      row(width, { text: ' '.repeat(indent) }, { text: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, color: 'cyan' }),
    );
    for (const r of hunkRows(h)) {
      const style = ROW_STYLE[r.kind];
      out.push(
        row(
          width,
          { text: ' '.repeat(indent) },
          { text: `${num(r.oldLine)} ${num(r.newLine)} `, dim: true },
          // A tab would move the terminal's column past what the row was cut to.
          { text: `${style.mark}${sanitizeLine(r.text)}`, color: style.color, dim: style.dim },
        ),
      );
    }
  }
  if (d.truncated)
    out.push(...wrapBlock(t('transcript:diff.truncated', { added: d.added, removed: d.removed }), width, indent, { color: 'yellow' }));
  return out;
}
