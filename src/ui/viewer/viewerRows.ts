// The viewer's rows, top to bottom: the title, the visible part of the list with its
// selection gutter and search highlights, the footer (search prompt, approval notice or
// flash) and the key hints, each part given its rows so the pane never exceeds its height.
import { t } from '../../i18n/index.js';
import { highlight, row, wrapBlock } from '../cards/lines.js';
import { FLASH_COLORS, type Flash } from '../hooks/useFlash.js';
import type { KeyTable } from '../keys/keyTable.js';
import type { Line, Seg } from '../text/segments.js';
import type { ViewEntry } from './entries.js';
import { hintLines, type HintMode } from './hints.js';
import * as nav from './viewport.js';
import type { UiState, ViewState } from './viewState.js';

export const GUTTER = 2;
const MAX_FLASH_ROWS = 3;

const SELECTED_FIRST: Seg = { text: '▸ ', color: 'cyan', bold: true };
const SELECTED_REST: Seg = { text: '│ ', color: 'cyan', bold: true };
const PLAIN_GUTTER: Seg = { text: '  ' };
const EMPTY_LINE: Line = [];
const guttered = new WeakMap<Line, Line>();

/** The same array for the same line, so rows that did not change are not redrawn by React. */
function withGutter(line: Line): Line {
  let out = guttered.get(line);
  if (!out) {
    out = [PLAIN_GUTTER, ...line];
    guttered.set(line, out);
  }
  return out;
}

export interface Parts {
  header: number;
  footer: number;
  hints: number;
  body: number;
}

/** Rows for each part, so the whole pane never exceeds maxRows at any size. */
function budget(maxRows: number, hintRows: number): Parts {
  const rows = Math.max(1, maxRows);
  const header = rows >= 2 ? 1 : 0;
  const footer = rows >= 3 ? 1 : 0;
  // The hints get the rows they wrap to (at 50–60 columns, three), as /agents gives its
  // own, so "Esc close" is never cut off; only a short pane keeps them to one or two.
  const hints = rows >= 10 ? Math.min(hintRows, Math.max(2, Math.floor(rows / 4))) : rows >= 5 ? 1 : 0;
  return { header, footer, hints, body: Math.max(1, rows - header - footer - hints) };
}

/** The footer: the search prompt, an approval notice, or a flash. */
export function footerLines(width: number, u: UiState, approvalWaiting: boolean, flash: Flash | undefined): Line[] {
  if (approvalWaiting) return [row(width, { text: t('transcript:viewer.approvalWaiting'), color: 'yellow' })];
  if (u.searching) return [row(width, { text: '/', bold: true, color: 'cyan' }, { text: u.draft }, { text: '▏', color: 'cyan' })];
  if (flash) return wrapBlock(flash.text, width, 0, { color: FLASH_COLORS[flash.level] }).slice(0, MAX_FLASH_ROWS);
  return [[]];
}

/** The parts' rows for this footer: a copy's flash names a file path, so it may borrow up
 * to two rows from the body to show it whole. */
export function viewerParts(maxRows: number, width: number, mode: HintMode, keys: KeyTable, footer: Line[]): Parts {
  const base = budget(maxRows, hintLines(mode, width, Number.MAX_SAFE_INTEGER, keys).length);
  const borrowed = base.footer ? Math.min(footer.length - 1, base.body - 1) : 0;
  return { ...base, footer: base.footer ? 1 + borrowed : 0, body: base.body - borrowed };
}

export interface Drawn {
  width: number;
  parts: Parts;
  view: ViewState;
  entries: ViewEntry[];
  shape: nav.ListShape;
  linesOf(i: number): Line[];
  query: string;
  liveNow: boolean;
  footer: Line[];
  mode: HintMode;
  keys: KeyTable;
}

function titleRow({ width, view, entries, liveNow }: Drawn): Line {
  const title: Seg[] = [{ text: t('transcript:viewer.title'), bold: true }];
  if (view.names) title.push({ text: ` › ${view.names.join(', ')}`, bold: true, color: 'cyan' });
  if (entries.length > 0)
    title.push({ text: `  ${t('transcript:viewer.position', { at: view.sel + 1, count: entries.length })}`, dim: true });
  if (liveNow) title.push({ text: `  ● ${t('transcript:viewer.live')}`, color: 'cyan' });
  if (view.expandAll) title.push({ text: `  ${t('transcript:viewer.expandedAll')}`, dim: true });
  return row(width, ...title);
}

export function viewerRows(d: Drawn): Line[] {
  const { width, parts, view, entries, shape, linesOf, query } = d;
  const rows: Line[] = [];
  if (parts.header) rows.push(titleRow(d));
  const visible = nav.visibleRows(view.vp, shape);
  for (const r of visible) {
    const line = linesOf(r.entry)[r.line] ?? EMPTY_LINE;
    const selected = r.entry === view.sel;
    if (selected) rows.push([r.line === 0 ? SELECTED_FIRST : SELECTED_REST, ...(query ? highlight(line, query) : line)]);
    else rows.push(query ? [PLAIN_GUTTER, ...highlight(line, query)] : withGutter(line));
  }
  if (entries.length === 0) rows.push(row(width, { text: '  ' }, { text: t('transcript:viewer.empty'), dim: true }));
  const bodyEnd = parts.header + parts.body;
  while (rows.length < bodyEnd) rows.push(EMPTY_LINE);
  rows.push(...d.footer.slice(0, parts.footer));
  rows.push(...hintLines(d.mode, width, parts.hints, d.keys));
  return rows;
}
