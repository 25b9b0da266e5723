// What the viewer lists and how each entry is laid out: messages, notices, tool cards
// (dedicated or generic), and in a child view a heading per child run. Lines are memoized per
// entry object, width and expansion; entries whose child is alive are laid out every frame.
import { currentLanguage, t } from '../../i18n/index.js';
import type { RuntimeState } from '../../model/state.js';
import { runName, type Run } from '../../model/run.js';
import type { ToolTranscriptItem, TranscriptItem } from '../../model/transcript.js';
import { collapsedLines, expandedLines, formatClock } from '../cards/cardLines.js';
import { genericCollapsed, genericExpanded } from '../cards/genericLines.js';
import { row, wrapBlock } from '../cards/lines.js';
import { fitLine, type Line } from '../text/segments.js';
import { boundRuns, callUsage, isAlive, runStatusText, sameRuns } from '../cards/live.js';
import { activeMs, runErrorText, STATUS_COLORS } from '../runDisplay.js';
import { cardModel } from '../cards/model.js';
import { firstLine, formatElapsed } from '../text/format.js';
import { wrapText } from '../text/width.js';
import { NOTICE_STYLE } from '../theme.js';
import { viewerReasoningLines } from '../reasoning/viewerLines.js';
import { DEFAULT_SHOW_REASONING } from '../reasoning/mode.js';
import type { ShowReasoning } from '../../config/types.js';

export type ViewEntry =
  | { kind: 'item'; key: string; item: TranscriptItem }
  /** The start of one child run's transcript (child views). `recorded`: read from the
   * session file, not a run of this process. */
  | { kind: 'child'; key: string; run: Run; recorded: boolean };

export interface LayoutContext {
  /** Columns for the entry (the gutter is not included). */
  width: number;
  frame: number;
  now: number;
  state: Pick<RuntimeState, 'runs' | 'runOrder' | 'runTranscripts'>;
  /** `[ui] show_reasoning` (absent: collapsed). */
  showReasoning?: ShowReasoning;
}

const USER_LINES = 4;
const ASSISTANT_LINES = 6;
const NOTICE_LINES = 3;

export function itemEntries(items: readonly TranscriptItem[]): ViewEntry[] {
  return items.map((item) => ({ kind: 'item', key: item.id, item }));
}

function clip(lines: Line[], max: number, expanded: boolean, width: number, indent: number): Line[] {
  if (expanded || lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  kept.push(row(width, { text: ' '.repeat(indent) }, { text: t('transcript:viewer.moreLines', { count: lines.length - max }), dim: true }));
  return kept;
}

function messageLines(
  item: Exclude<TranscriptItem, { kind: 'tool' }>,
  expanded: boolean,
  width: number,
  showReasoning: ShowReasoning = DEFAULT_SHOW_REASONING,
): Line[] {
  switch (item.kind) {
    case 'user': {
      const body = wrapText(item.text, Math.max(1, width - 2)).map((l, i): Line => [
        { text: i === 0 ? '› ' : '  ', color: 'cyan', bold: true },
        { text: l, bold: true },
      ]);
      return clip(body, USER_LINES, expanded, width, 2);
    }
    case 'assistant': {
      const thought = viewerReasoningLines(item, showReasoning, expanded, width);
      // A step that only reasoned (then called tools) is its reasoning alone.
      const answer = item.text.trimEnd() || (thought.length && !item.streaming ? '' : '…');
      const body = answer ? wrapBlock(answer, width, 2) : [];
      if (item.streaming) body[body.length - 1] = fitLine([...body[body.length - 1], { text: ' ▍', color: 'cyan' }], width);
      const lines = [...thought, ...clip(body, ASSISTANT_LINES, expanded, width, 2)];
      if (item.interrupted) lines.push(row(width, { text: `  ⊘ ${t('transcript:viewer.interrupted')}`, color: 'yellow' }));
      return lines;
    }
    case 'notice': {
      const style = NOTICE_STYLE[item.level];
      const body = wrapText(item.text, Math.max(1, width - 2)).map((l, i): Line => [
        { text: i === 0 ? `${style.glyph} ` : '  ', color: style.color },
        { text: l, color: item.level === 'info' ? undefined : style.color },
      ]);
      return clip(body, NOTICE_LINES, expanded, width, 2);
    }
  }
}

function childHeading(run: Run, recorded: boolean, ctx: LayoutContext): Line[] {
  const w = ctx.width;
  const status = recorded ? t('transcript:viewer.recordedStatus', { status: t(`transcript:status.${run.status}`) }) : runStatusText(run);
  const lines: Line[] = [
    row(
      w,
      { text: '── ', dim: true },
      { text: runName(run), bold: true, color: 'cyan' },
      { text: ` · ${run.shortId} · `, dim: true },
      { text: status, color: recorded ? 'gray' : STATUS_COLORS[run.status] },
      { text: ` · ${formatClock(run.startedAt ?? run.createdAt)} → ${formatClock(run.endedAt)}`, dim: true },
      run.startedAt !== undefined ? { text: ` · ${formatElapsed(activeMs(run, ctx.now))}`, dim: true } : undefined,
    ),
  ];
  lines.push(row(w, { text: '   ' }, { text: firstLine(run.task), dim: true }));
  const error = runErrorText(run);
  if (error) lines.push(row(w, { text: '   ' }, { text: firstLine(error), color: 'red' }));
  return lines;
}

export function isLiveEntry(entry: ViewEntry, ctx: LayoutContext): boolean {
  if (entry.kind === 'child') return !entry.recorded && isAlive(entry.run);
  const item = entry.item;
  if (item.kind === 'assistant') return item.streaming === true;
  if (item.kind !== 'tool' || item.restored) return false;
  if (item.status === 'running' || item.status === 'pending_approval') return true;
  return boundRuns(ctx.state, item).some(isAlive);
}

function layout(entry: ViewEntry, expanded: boolean, ctx: LayoutContext): Line[] {
  if (entry.kind === 'child') return childHeading(entry.run, entry.recorded, ctx);
  const item = entry.item;
  if (item.kind !== 'tool') return messageLines(item, expanded, ctx.width, ctx.showReasoning);
  return toolLines(item, expanded, ctx);
}

function toolLines(item: ToolTranscriptItem, expanded: boolean, ctx: LayoutContext): Line[] {
  const model = cardModel(item);
  if (!model) return expanded ? genericExpanded(item, ctx.width, ctx.frame) : genericCollapsed(item, ctx.width, ctx.frame);
  const view = {
    item,
    model,
    runs: boundRuns(ctx.state, item),
    usage: callUsage(ctx.state, boundRuns(ctx.state, item)),
    width: ctx.width,
    frame: ctx.frame,
    now: ctx.now,
    childItems: (runId: string) => ctx.state.runTranscripts.get(runId),
  };
  return expanded ? expandedLines(view) : collapsedLines(view);
}

interface Cached {
  width: number;
  lang: string;
  reasoning: ShowReasoning | undefined;
  /** A tool card's bound runs at layout time. Entries cached here have no live child, so
   * these are final records: the card changes only if the list of them does. */
  bound: readonly Run[];
  lines: Line[];
}

/** One cache per state, so toggling a card back and forth lays it out once each way. */
const caches = { collapsed: new WeakMap<object, Cached>(), expanded: new WeakMap<object, Cached>() };

function cacheKey(entry: ViewEntry): object {
  return entry.kind === 'child' ? entry.run : entry.item;
}

const NO_RUNS: readonly Run[] = [];

export function entryLines(entry: ViewEntry, expanded: boolean, ctx: LayoutContext): Line[] {
  if (isLiveEntry(entry, ctx)) return layout(entry, expanded, ctx);
  const k = cacheKey(entry);
  const lang = currentLanguage();
  const bound = entry.kind === 'item' && entry.item.kind === 'tool' ? boundRuns(ctx.state, entry.item) : NO_RUNS;
  const cache = expanded ? caches.expanded : caches.collapsed;
  const hit = cache.get(k);
  if (hit && hit.width === ctx.width && hit.lang === lang && hit.reasoning === ctx.showReasoning && sameRuns(hit.bound, bound))
    return hit.lines;
  const lines = layout(entry, expanded, ctx);
  cache.set(k, { width: ctx.width, lang, reasoning: ctx.showReasoning, bound, lines });
  return lines;
}

/** Lower-cased text a search looks through, memoized per entry object. */
const searchCache = new WeakMap<object, string>();

export function searchText(entry: ViewEntry): string {
  const k = cacheKey(entry);
  const hit = searchCache.get(k);
  if (hit !== undefined) return hit;
  let text: string;
  if (entry.kind === 'child') text = `${entry.run.alias}\n${entry.run.task}\n${runErrorText(entry.run) ?? ''}`;
  else {
    const item = entry.item;
    text = item.kind === 'tool' ? `${item.name}\n${item.rawArgs}\n${item.result ?? ''}` : item.text;
  }
  text = text.toLowerCase();
  searchCache.set(k, text);
  return text;
}
