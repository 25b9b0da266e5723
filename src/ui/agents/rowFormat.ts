// One pane row per run: margin, indent, status, label and kind, task, then the metrics
// (elapsed active time, iterations, tools, the tool running now, tokens, cost). Metrics
// keep fixed widths so they line up; on a narrow terminal the least useful drop first.
// Rows are memoized per run object: the store replaces a run's object when it changes.
import { currentLanguage, t } from '../../i18n/index.js';
import { isExternalAcpRun, isTerminal } from '../../model/run.js';
import { formatCost, formatElapsed, formatTokens } from '../text/format.js';
import { subtreeText } from '../text/usageText.js';
import { displayWidth, truncate } from '../text/width.js';
import { fitLine, type Line, type Seg } from '../text/segments.js';
import { flagsText } from '../../model/ledgerText.js';
import type { ObservedFlag } from '../../model/ledger.js';
import { kindWord, STATUS_GLYPHS, statusText } from './status.js';
import type { TreeRow } from './tree.js';
import { activeMs, STATUS_COLORS } from '../runDisplay.js';
import { worktreeBadge } from '../worktrees/worktreeText.js';

/** The task column never shrinks below this before metrics start to drop. */
const MIN_TASK = 12;
/** Beside flags in words, a row's task keeps at least this (its start stays readable). */
const FLAGGED_MIN_TASK = 8;
const STATUS_PAD = 9;
/** A parent row's subtree sum is shown only while the task keeps this much room. */
const TASK_BEFORE_SUM = 24;

export type MetricId = 'elapsed' | 'tool' | 'tokens' | 'iterations' | 'tools' | 'cost' | 'model';
/** Fixed cell widths, so the columns line up. */
const METRIC_WIDTHS: Record<MetricId, number> = { elapsed: 6, iterations: 6, tools: 9, tool: 14, tokens: 10, cost: 8, model: 18 };
/** Left to right as shown; DROP_ORDER says which go first when room is short. */
const METRICS: MetricId[] = ['elapsed', 'iterations', 'tools', 'tool', 'tokens', 'cost', 'model'];
// The model that answered (run.model, from the provider's reply) is the widest, so it goes first.
const DROP_ORDER: MetricId[] = ['model', 'cost', 'tools', 'iterations', 'tokens', 'tool', 'elapsed'];

/** The tool running right now: the last one started and not finished. */
export function currentTool(row: TreeRow): string | undefined {
  const last = row.run.lastTool;
  return last && last.finishedAt === undefined && !isTerminal(row.run.status) ? last.name : undefined;
}

/** Text cut or padded to the metric's column width. */
function fixed(text: string, id: MetricId, style: Omit<Seg, 'text'>, align: 'left' | 'right' = 'right'): Seg {
  const w = METRIC_WIDTHS[id];
  const cut = truncate(text, w);
  const pad = ' '.repeat(Math.max(0, w - displayWidth(cut)));
  return { ...style, text: align === 'left' ? cut + pad : pad + cut };
}

function metric(id: MetricId, row: TreeRow, now: number): Seg {
  const run = row.run;
  switch (id) {
    case 'elapsed':
      return fixed(run.startedAt === undefined ? '–' : formatElapsed(activeMs(run, now), { compact: true }), id, { dim: true });
    case 'iterations':
      return fixed(t('agents:row.iterations', { n: run.iterations }), id, { dim: true });
    case 'tools':
      return fixed(t('agents:row.tools', { count: run.toolsCompleted }), id, { dim: true });
    case 'tool': {
      const name = currentTool(row);
      return name ? fixed(`▸ ${name}`, id, { color: 'cyan' }, 'left') : fixed('', id, {});
    }
    case 'tokens':
      return fixed(t('agents:row.tokens', { n: formatTokens(run.tokensIn + run.tokensOut) }), id, { dim: true });
    case 'cost':
      return fixed(formatCost(run.costUsd), id, { dim: true });
    case 'model':
      return fixed(run.model.slice(run.model.indexOf('/') + 1), id, { dim: true }, 'left');
  }
}

/** Marks a run whose ask waits for the operator (in place of its status glyph). */
export const ASK_MARK = '⚑';

/** A finished child's ⚠ flags when the task has no room for their words: the mark and how
 * many (/subagents info and the card spell them out). */
export function shortFlags(flags: readonly unknown[]): string {
  return `⚠${flags.length}`;
}

/** The ways a row can show its flags, widest first, one per FlagLevel: all in words, the
 * first in words and how many more (all in words when there is one), the short form. */
function flagForms(flags: readonly ObservedFlag[]): [string, string, string] {
  const words = flagsText(flags);
  return [words, flags.length > 1 ? `${flagsText(flags.slice(0, 1))} +${flags.length - 1}` : words, shortFlags(flags)];
}
type FlagLevel = 0 | 1 | 2;
const SHORT_FLAGS: FlagLevel = 2;
/** Flags in words may push out only these metrics (the first of DROP_ORDER): a finished
 * child's warning matters more than them, not more than the time, tokens or tool running. */
const FLAG_WORDS_OUTRANK: ReadonlySet<MetricId> = new Set<MetricId>(['model', 'cost', 'tools']);

/** The left part of a row: margin, indent, status, label and kind, then the flags in the
 * form given (flagForms). */
function leftPart(row: TreeRow, posWidth: number, asking: boolean, flags: string): Line {
  const run = row.run;
  const color = STATUS_COLORS[run.status];
  return [
    { text: `${''.padStart(posWidth)} ${'  '.repeat(row.level)}`, dim: true },
    asking ? { text: `${ASK_MARK} `, color: 'yellow', bold: true } : { text: `${STATUS_GLYPHS[run.status]} `, color },
    { text: statusText(run).padEnd(STATUS_PAD), color },
    { text: ` ${row.label}`, bold: !row.context },
    { text: ` ${kindWord(run)}`, dim: true },
    ...(flags ? [{ text: ` ${flags}`, color: 'yellow' }] : []),
    ...(run.worktree ? [{ text: ` ${worktreeBadge(run.worktree)}`, color: run.worktree.state === 'conflict' ? 'red' : 'magenta' }] : []),
    { text: '  ' },
  ];
}

const widthOf = (line: Line) => line.reduce((w, s) => w + displayWidth(s.text), 0);

/** Which metrics fit, decided once for the rows on screen so their columns line up at the
 * right edge: the widest left part must still leave MIN_TASK cells for the task, and the
 * widest flagged one, its flags included, FLAGGED_MIN_TASK. Flags count in words while that
 * costs only FLAG_WORDS_OUTRANK metrics, else in a shorter form (flagForms). */
export function chooseMetrics(rows: TreeRow[], width: number, posWidth: number, reserved = 0): MetricId[] {
  return fitColumns(leftWidths(rows, posWidth), width, reserved).metrics;
}

/** The widest left part without flags (`bare`), and with flags at each flag level. */
interface LeftWidths {
  bare: number;
  withFlags: [number, number, number];
}

/** One row's left part, without flags and with them at each flag level. */
interface RowWidths {
  posWidth: number;
  language: string;
  bare: number;
  withFlags?: [number, number, number];
}
/** Kept per row object: the tree hands back the same row while its run is unchanged
 * (tree.ts), so a refresh measures only the rows that changed. */
const rowWidths = new WeakMap<TreeRow, RowWidths>();

/** LeftWidths over the rows: once per refresh over every row (1,000 in a big fan-out), so
 * it is a maximum over widths kept per row, measured (once per distinct word, label length
 * or flag text) only for rows new since the last refresh. */
function leftWidths(rows: readonly TreeRow[], posWidth: number): LeftWidths {
  const language = currentLanguage();
  const words = new Map<string, number>();
  const wordWidth = (key: string, make: () => string) => {
    let w = words.get(key);
    if (w === undefined) {
      w = displayWidth(make());
      words.set(key, w);
    }
    return w;
  };
  const measure = (row: TreeRow): RowWidths => {
    const run = row.run;
    const status = wordWidth(`s${run.status}${run.queuePosition ?? ''}${isExternalAcpRun(run) ? 'x' : ''}`, () => statusText(run));
    const kind = wordWidth(`k${run.kind}`, () => kindWord(run));
    const label = wordWidth(`l${row.label}`, () => row.label);
    const bare = posWidth + 1 + 2 * row.level + 2 + Math.max(STATUS_PAD, status) + 1 + label + 1 + kind + 2;
    // Finished children mostly carry the same flags ("no tools used"): measured once.
    const withFlags = row.flags
      ? (flagForms(row.flags).map((form) => bare + 1 + wordWidth(`f${form}`, () => form)) as [number, number, number])
      : undefined;
    return { posWidth, language, bare, withFlags };
  };
  let bare = 0;
  const withFlags: [number, number, number] = [0, 0, 0];
  for (const row of rows) {
    let w = rowWidths.get(row);
    if (!w || w.posWidth !== posWidth || w.language !== language) {
      w = measure(row);
      rowWidths.set(row, w);
    }
    if (w.bare > bare) bare = w.bare;
    if (w.withFlags) for (let i = 0; i < 3; i++) withFlags[i] = Math.max(withFlags[i], w.withFlags[i]);
  }
  return { bare, withFlags };
}

/** chooseMetrics with the room `reserved` cells more take (the subtree-sum column); `fits`
 * says whether that room is there even once every metric has dropped; `level`, the flag form
 * it was counted with. */
function fitColumns(
  { bare, withFlags }: LeftWidths,
  width: number,
  reserved: number,
): { metrics: MetricId[]; fits: boolean; level: FlagLevel } {
  const metricsWidth = (shown: Set<MetricId>) => METRICS.filter((m) => shown.has(m)).reduce((w, m) => w + 1 + METRIC_WIDTHS[m], 0);
  const fit = (level: FlagLevel) => {
    const shown = new Set(METRICS);
    const flaggedMin = level < SHORT_FLAGS ? FLAGGED_MIN_TASK : MIN_TASK;
    const roomy = () => {
      const rest = width - metricsWidth(shown) - reserved;
      return rest - bare >= MIN_TASK && rest - withFlags[level] >= flaggedMin;
    };
    for (const m of DROP_ORDER) {
      if (roomy() || (level < SHORT_FLAGS && !FLAG_WORDS_OUTRANK.has(m))) break;
      shown.delete(m);
    }
    return { metrics: METRICS.filter((m) => shown.has(m)), fits: roomy(), level };
  };
  if (withFlags[0] > bare) {
    for (const level of [0, 1] as const) {
      const tried = fit(level);
      if (tried.fits) return tried;
    }
  }
  return fit(SHORT_FLAGS);
}

/** The columns of the rows on screen: the metrics that fit, then the subtree-sum column's
 * width if it fits beside all of them (0: no row shows a sum, as a narrow terminal drops
 * them first). One decision for every row, so the columns line up. */
export function chooseColumns(rows: TreeRow[], width: number, posWidth: number): { metrics: MetricId[]; sumWidth: number } {
  const left = leftWidths(rows, posWidth);
  const chosen = fitColumns(left, width, 0);
  const metrics = chosen.metrics;
  const sumWidth = subtreeColumn(rows);
  const withSums = fitColumns(left, width, sumWidth);
  // The sums never cost a metric, nor a flag's words.
  const keeps = withSums.fits && withSums.metrics.length === metrics.length && withSums.level === chosen.level;
  return { metrics, sumWidth: sumWidth > 0 && keeps ? sumWidth : 0 };
}

/** Cells the subtree-sum column takes on the rows shown: reserved on every row (blank where
 * a run has no children), so a parent's metrics line up with its children's instead of
 * sitting left of them by the sum's width. */
export function subtreeColumn(rows: readonly TreeRow[]): number {
  let w = 0;
  for (const row of rows) if (row.subtree) w = Math.max(w, displayWidth(` ${subtreeText(row.subtree)}`));
  return w;
}

interface Cached {
  key: string;
  line: Line;
}
const cache = new WeakMap<TreeRow['run'], Cached>();

export function formatRow(
  row: TreeRow,
  width: number,
  posWidth: number,
  metrics: MetricId[],
  now: number,
  asking = false,
  /** The sum column chosen for all rows (chooseColumns; 0: none); omitted, each parent row
   * shows its sum where it fits. */
  sumWidth?: number,
): Line {
  const run = row.run;
  const elapsedKey = isTerminal(run.status) || run.startedAt === undefined ? '' : Math.floor(activeMs(run, now) / 1000);
  const sub = row.subtree ? `${row.subtree.tokensIn + row.subtree.tokensOut}/${row.subtree.costUsd}` : '';
  const key = `${width}|${posWidth}|${metrics.join(',')}|${row.level}|${row.label}|${row.context ? 1 : 0}|${elapsedKey}|${currentLanguage()}|${asking ? 1 : 0}|${sub}|${row.flags?.length ?? 0}|${sumWidth ?? '-'}`;
  const hit = cache.get(run);
  if (hit && hit.key === key) return hit.line;
  const line = buildRow(row, width, posWidth, metrics, now, asking, sumWidth);
  cache.set(run, { key, line });
  return line;
}

function buildRow(
  row: TreeRow,
  width: number,
  posWidth: number,
  metrics: MetricId[],
  now: number,
  asking: boolean,
  sumWidth: number | undefined,
): Line {
  const right: Line = [];
  for (const m of metrics) right.push({ text: ' ' }, metric(m, row, now));
  const fullTask = row.run.task.replace(/\s+/g, ' ').trim() || '—';
  // A parent's row ends with its whole subtree's spend (itself included).
  const own = row.subtree ? ` ${subtreeText(row.subtree)}` : '';
  if (sumWidth !== undefined) {
    // The column chosen for all rows (chooseColumns): always there, blank on a leaf.
    if (sumWidth > 0) right.push({ text: ' '.repeat(Math.max(0, sumWidth - displayWidth(own))) + own, color: 'magenta' });
  }
  // Flags in as many words as leave the task FLAGGED_MIN_TASK cells (or all of a shorter
  // one); at the least their short form, which the columns were chosen to leave room for.
  const flagKeep = Math.min(FLAGGED_MIN_TASK, displayWidth(fullTask));
  const [words, ...shorter] = row.flags ? flagForms(row.flags) : [''];
  let left = leftPart(row, posWidth, asking, words);
  for (const form of shorter) {
    if (width - widthOf(left) - widthOf(right) >= flagKeep) break;
    left = leftPart(row, posWidth, asking, form);
  }
  // Without a column chosen for all rows, the sum takes the task's room only while the task
  // keeps its first TASK_BEFORE_SUM cells (or all of a short one).
  const keep = Math.max(MIN_TASK, Math.min(displayWidth(fullTask), TASK_BEFORE_SUM));
  if (sumWidth === undefined && own && width - widthOf(left) - widthOf(right) - displayWidth(own) >= keep) {
    right.push({ text: own, color: 'magenta' });
  }
  const taskRoom = Math.max(1, width - widthOf(left) - widthOf(right));
  const task = truncate(fullTask, taskRoom);
  const line: Line = [...left, { text: task + ' '.repeat(Math.max(0, taskRoom - displayWidth(task))), dim: row.context }, ...right];
  if (row.context) for (const seg of line) seg.dim = true;
  return fitLine(line, width);
}
