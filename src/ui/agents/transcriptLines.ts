// A run's own transcript as display lines for the pane's transcript view: messages and
// tool calls with their status. Lines are memoized per item object and width, so a live
// transcript only lays out the item that changed.
import { t } from '../../i18n/index.js';
import type { RuntimeState } from '../../model/state.js';
import type { TranscriptItem } from '../../model/transcript.js';
import { summarizeArgs } from '../text/format.js';
import { truncate } from '../text/width.js';
import { NOTICE_STYLE, TOOL_COLORS, TOOL_GLYPHS } from '../theme.js';
import { wrapSeg } from './segments.js';
import type { Line } from '../text/segments.js';
import { childTranscriptReasoningLines } from '../reasoning/viewerLines.js';
import { DEFAULT_SHOW_REASONING } from '../reasoning/mode.js';
import type { ShowReasoning } from '../../config/types.js';

/** Result lines shown under a tool call; the whole result is in /subagents log. */
const RESULT_LINES = 3;
/** A very long message is cut here so a refresh never lays out megabytes. */
const ITEM_LINES = 400;

/** A child's items are its own transcript; a root turn's are the session items it made. */
export function runItems(s: RuntimeState, runId: string): TranscriptItem[] {
  const run = s.runs.get(runId);
  if (!run) return [];
  if (run.kind !== 'root') return s.runTranscripts.get(runId) ?? [];
  const end = run.endedAt ?? Number.POSITIVE_INFINITY;
  return s.transcript.filter((item) => {
    if (item.kind === 'assistant' || item.kind === 'tool') return item.runId === runId;
    return item.at >= run.createdAt && item.at <= end;
  });
}

function layout(item: TranscriptItem, width: number, showReasoning: ShowReasoning): Line[] {
  switch (item.kind) {
    case 'user': {
      const lines = wrapSeg(item.text, width - 2, { bold: true });
      return lines.map((l, i) => [{ text: i === 0 ? '› ' : '  ', color: 'cyan', bold: true }, ...l]);
    }
    case 'assistant': {
      const thought = childTranscriptReasoningLines(item, showReasoning, width);
      const lines = [...thought, ...(item.text || !thought.length ? wrapSeg(item.text || '…', width, {}, '  ') : [])];
      if (lines.length === 0) lines.push([]);
      if (item.streaming) lines[lines.length - 1].push({ text: ' ▍', color: 'cyan' });
      if (item.interrupted) lines.push([{ text: `  ⊘ ${t('agents:transcript.interrupted')}`, color: 'yellow' }]);
      return lines;
    }
    case 'tool': {
      const glyph = item.status === 'running' ? '●' : TOOL_GLYPHS[item.status];
      const head = `  ${glyph} ${item.name} `;
      const lines: Line[] = [
        [
          { text: `  ${glyph} `, color: TOOL_COLORS[item.status] },
          { text: item.name, bold: true },
          { text: ` ${truncate(summarizeArgs(item.args, item.rawArgs) || '', Math.max(1, width - head.length))}`, dim: true },
        ],
      ];
      const result = (item.result ?? '').split('\n').filter((l) => l.trim());
      for (const [i, l] of result.slice(0, RESULT_LINES).entries()) {
        lines.push([
          {
            text: truncate(`${i === 0 ? '    └ ' : '      '}${l}`, width),
            dim: item.status !== 'error',
            color: item.status === 'error' ? 'red' : undefined,
          },
        ]);
      }
      if (result.length > RESULT_LINES)
        lines.push([{ text: `      ${t('agents:transcript.moreLines', { count: result.length - RESULT_LINES })}`, dim: true }]);
      return lines;
    }
    case 'notice': {
      const style = NOTICE_STYLE[item.level];
      return wrapSeg(item.text, width - 2).map((l, i) => [{ text: i === 0 ? `${style.glyph} ` : '  ', color: style.color }, ...l]);
    }
  }
}

const cache = new WeakMap<TranscriptItem, { width: number; reasoning: ShowReasoning; lines: Line[] }>();

export function itemLines(item: TranscriptItem, width: number, showReasoning: ShowReasoning = DEFAULT_SHOW_REASONING): Line[] {
  const hit = cache.get(item);
  if (hit && hit.width === width && hit.reasoning === showReasoning) return hit.lines;
  const lines = layout(item, width, showReasoning).slice(0, ITEM_LINES);
  cache.set(item, { width, reasoning: showReasoning, lines });
  return lines;
}

export function transcriptLines(items: TranscriptItem[], width: number, showReasoning: ShowReasoning = DEFAULT_SHOW_REASONING): Line[] {
  const out: Line[] = [];
  for (const item of items) for (const l of itemLines(item, width, showReasoning)) out.push(l);
  return out;
}
