// The generic card as lines, for the transcript viewer: every tool without a dedicated card,
// background launches, task management (check_result, list_results, cancel_task,
// await_sessions) and calls whose arguments are malformed or oversized. Collapsed it reads
// like the chat's ToolCard; expanded it shows the arguments and the result under the same
// display limits as the dedicated cards.
import { t, type TranslationKey } from '../../i18n/index.js';
import type { ToolTranscriptItem } from '../../model/transcript.js';
import { prettyArgs, toolArgsSummary } from '../text/format.js';
import { spinnerFrame, TOOL_COLORS, TOOL_GLYPHS } from '../theme.js';
import { callStatusWord, formatClock } from './cardLines.js';
import { limitNote, limitText } from './limits.js';
import { toolOutcome } from './outcome.js';
import { row, wrapBlock } from './lines.js';
import { fitLine, type Line } from '../text/segments.js';
import { reachedRetentionCap } from './cardArgs.js';
import { diffBodyLines, diffOf, diffSummarySegs } from './diffLines.js';

function glyph(item: ToolTranscriptItem, frame: number): string {
  if (item.status === 'running') return item.restored ? '◌' : spinnerFrame(frame);
  return TOOL_GLYPHS[item.status];
}

export function genericCollapsed(item: ToolTranscriptItem, width: number, frame: number): Line[] {
  const diff = diffOf(item);
  const head = row(
    width,
    { text: `${glyph(item, frame)} `, color: TOOL_COLORS[item.status] },
    { text: item.name, bold: true },
    // A file change reads as its path and counts; other calls as their arguments.
    ...(diff ? diffSummarySegs(diff) : [{ text: ` ${toolArgsSummary(item.name, item.args, item.rawArgs)}`, dim: true }]),
  );
  const out = toolOutcome(item, 'notRecorded');
  const restored = item.restored ? `${t('transcript:card.restored')} · ` : '';
  if (!out && !restored) return [head];
  const failed = item.status === 'error';
  return [head, row(width, { text: '  └ ', dim: true }, { text: restored + out, color: failed ? 'red' : undefined, dim: !failed })];
}

function field(text: string, width: number, indent: number, color?: string): Line[] {
  const l = limitText(text);
  const lines = wrapBlock(l.text, width, indent, { color });
  if (l.limited) lines.push(...wrapBlock(limitNote(l), width, indent, { color: 'yellow' }));
  return lines;
}

export function genericExpanded(item: ToolTranscriptItem, width: number, frame: number): Line[] {
  const out = genericCollapsed(item, width, frame);
  const h = (key: TranslationKey) => row(width, { text: '  ' }, { text: t(key), bold: true });
  out.push(h('transcript:section.arguments'));
  const args = item.args === undefined ? item.rawArgs : prettyArgs(item.args, item.rawArgs);
  out.push(...field(args || t('transcript:card.noArguments'), width, 4));
  const diff = diffOf(item);
  if (diff) out.push(h('transcript:section.diff'), ...diffBodyLines(diff, width));
  out.push(h('transcript:section.result'));
  const settled = item.restored || (item.status !== 'running' && item.status !== 'pending_approval');
  if (item.result) out.push(...field(item.result, width, 4, item.status === 'error' ? 'red' : undefined));
  else
    out.push(
      ...wrapBlock(settled ? t('transcript:card.notRecorded') : t('transcript:card.waiting'), width, 4, {
        dim: !settled,
        color: settled ? 'yellow' : undefined,
      }),
    );
  out.push(h('transcript:section.details'));
  out.push(
    row(
      width,
      { text: '    ' },
      { text: t('transcript:details.call', { id: item.callId, status: callStatusWord(item) }), dim: true },
      { text: ` · ${formatClock(item.startedAt)} → ${formatClock(item.endedAt)}`, dim: true },
    ),
  );
  if (reachedRetentionCap(item.result)) out.push(...wrapBlock(t('transcript:details.capped'), width, 4, { color: 'yellow' }));
  if (item.restored) out.push(...wrapBlock(t('transcript:details.restoredGeneric'), width, 4, { color: 'gray' }));
  return out.map((l) => fitLine(l, width));
}
