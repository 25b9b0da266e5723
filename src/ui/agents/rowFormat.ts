// One pane row per run: position, indent, status, label and kind, task, then the metrics
// (elapsed active time, iterations, tools, the tool running now, tokens, cost). Metrics
// keep fixed widths so they line up; on a narrow terminal the least useful drop first.
// Rows are memoized per run object: the store replaces a run's object when it changes.
import { currentLanguage, t } from '../../i18n/index.js';
import { isTerminal } from '../../runtime/types.js';
import { formatCost, formatTokens } from '../text/format.js';
import { displayWidth, truncate } from '../text/width.js';
import { fitLine, type Line, type Seg } from './segments.js';
import { kindWord, STATUS_COLORS, STATUS_GLYPHS, statusText } from './status.js';
import { activeMs, compactDuration, type TreeRow } from './tree.js';

/** The task column never shrinks below this before metrics start to drop. */
const MIN_TASK = 12;
const STATUS_PAD = 9;
const TOOL_WIDTH = 14;

type MetricId = 'elapsed' | 'tool' | 'tokens' | 'iterations' | 'tools' | 'cost';
/** Left to right as shown; DROP_ORDER says which go first when room is short. */
const METRICS: MetricId[] = ['elapsed', 'iterations', 'tools', 'tool', 'tokens', 'cost'];
const DROP_ORDER: MetricId[] = ['cost', 'tools', 'iterations', 'tokens', 'tool', 'elapsed'];

/** The tool running right now: the last one started and not finished. */
export function currentTool(row: TreeRow): string | undefined {
  const last = row.run.lastTool;
  return last && last.finishedAt === undefined && !isTerminal(row.run.status) ? last.name : undefined;
}

function metric(id: MetricId, row: TreeRow, now: number): Seg {
  const run = row.run;
  switch (id) {
    case 'elapsed':
      return { text: (run.startedAt === undefined ? '–' : compactDuration(activeMs(run, now))).padStart(6), dim: true };
    case 'iterations':
      return { text: t('agents:row.iterations', { n: run.iterations }).padStart(6), dim: true };
    case 'tools':
      return { text: t('agents:row.tools', { n: run.toolsCompleted }).padStart(9), dim: true };
    case 'tool': {
      const name = currentTool(row);
      return name ? { text: truncate(`▸ ${name}`, TOOL_WIDTH).padEnd(TOOL_WIDTH), color: 'cyan' } : { text: ''.padEnd(TOOL_WIDTH) };
    }
    case 'tokens':
      return { text: t('agents:row.tokens', { n: formatTokens(run.tokensIn + run.tokensOut) }).padStart(10), dim: true };
    case 'cost':
      return { text: formatCost(run.costUsd).padStart(8), dim: true };
  }
}

interface Cached {
  key: string;
  line: Line;
}
const cache = new WeakMap<TreeRow['run'], Cached>();

export function formatRow(row: TreeRow, width: number, posWidth: number, now: number): Line {
  const run = row.run;
  const elapsedKey = isTerminal(run.status) || run.startedAt === undefined ? '' : Math.floor(activeMs(run, now) / 1000);
  const key = `${width}|${posWidth}|${row.level}|${row.position ?? ''}|${row.label}|${row.context ? 1 : 0}|${elapsedKey}|${currentLanguage()}`;
  const hit = cache.get(run);
  if (hit && hit.key === key) return hit.line;
  const line = buildRow(row, width, posWidth, now);
  cache.set(run, { key, line });
  return line;
}

function buildRow(row: TreeRow, width: number, posWidth: number, now: number): Line {
  const run = row.run;
  const pos = row.position !== undefined ? String(row.position) : '';
  const color = STATUS_COLORS[run.status];
  const left: Line = [
    { text: `${pos.padStart(posWidth)} ${'  '.repeat(row.level)}`, dim: true },
    { text: `${STATUS_GLYPHS[run.status]} `, color },
    { text: statusText(run).padEnd(STATUS_PAD), color },
    { text: ` ${row.label}`, bold: !row.context },
    { text: ` ${kindWord(run)}`, dim: true },
    { text: '  ' },
  ];
  const leftW = left.reduce((w, s) => w + displayWidth(s.text), 0);
  const segs = new Map(METRICS.map((m) => [m, metric(m, row, now)] as const));
  const shown = new Set(METRICS);
  const metricsWidth = () => METRICS.filter((m) => shown.has(m)).reduce((w, m) => w + 1 + displayWidth(segs.get(m)!.text), 0);
  for (const m of DROP_ORDER) {
    if (width - leftW - metricsWidth() >= MIN_TASK) break;
    shown.delete(m);
  }
  const taskRoom = Math.max(1, width - leftW - metricsWidth());
  const task = truncate(run.task.replace(/\s+/g, ' ').trim() || '—', taskRoom);
  const line: Line = [...left, { text: task + ' '.repeat(Math.max(0, taskRoom - displayWidth(task))), dim: row.context }];
  for (const m of METRICS) if (shown.has(m)) line.push({ text: ' ' }, segs.get(m)!);
  if (row.context) for (const seg of line) seg.dim = true;
  return fitLine(line, width);
}
