// The in-flight part of the transcript: the reply still streaming (plain text, only its
// last lines), running tool cards, and anything waiting behind them. Everything here fits
// in `maxRows`; the full text goes to scrollback as markdown once it is finished.
import React, { memo } from 'react';
import { Box, Text } from 'ink';
import type { TranscriptItem } from '../../model/transcript.js';
import { t } from '../../i18n/index.js';
import { useTicker } from '../hooks/useTicker.js';
import { ASSISTANT_INDENT, SPINNER_INTERVAL_MS, USER_PROMPT } from '../theme.js';
import { tailLines, truncate, wrapText } from '../text/width.js';
import { firstLine } from '../text/format.js';
import { NoticeLine } from './NoticeLine.js';
import { renderToolItem, toolItemHeight, type ToolRenderContext } from './renderToolItem.js';
import { DEFAULT_SHOW_REASONING } from '../reasoning/mode.js';
import type { ShowReasoning } from '../../config/types.js';
import { LiveThinkingLine, liveReasoningRows } from '../reasoning/ThinkingLine.js';

export interface LiveTurnProps {
  items: readonly TranscriptItem[];
  width: number;
  /** Rows this region may use, all included. */
  maxRows: number;
  turnRunning: boolean;
  /** `[ui] show_reasoning`: the thinking line under the streaming reply. */
  showReasoning?: ShowReasoning;
}

/** Rows the streaming reply keeps even when many cards compete for space. */
const MIN_TEXT_ROWS = 3;

function lastAssistant(items: readonly TranscriptItem[]): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].kind === 'assistant') return i;
  return -1;
}

/** A notice in the live region (the runaway banner while the tree runs, a retry, a
 * background task's end) is wrapped, never cut: up to this many rows, the rest elided. */
const NOTICE_MAX_ROWS = 8;

export function noticeRows(text: string, width: number): string[] {
  const lines = wrapText(text.trimEnd(), Math.max(1, width - 2));
  if (lines.length <= NOTICE_MAX_ROWS) return lines;
  const kept = lines.slice(0, NOTICE_MAX_ROWS);
  kept[NOTICE_MAX_ROWS - 1] = truncate(`${kept[NOTICE_MAX_ROWS - 1]} …`, Math.max(1, width - 2));
  return kept;
}

function compactHeight(item: TranscriptItem, ctx: ToolRenderContext): number {
  if (item.kind === 'notice') return noticeRows(item.text, ctx.width).length;
  return item.kind === 'tool' ? toolItemHeight(item, ctx) : 1;
}

/** One line for an item that is not the streaming reply. */
function CompactItem({ item, ctx }: { item: TranscriptItem; ctx: ToolRenderContext }) {
  switch (item.kind) {
    case 'tool':
      return <>{renderToolItem(item, ctx)}</>;
    case 'assistant': {
      const lines = item.text.trimEnd().split('\n');
      return (
        <Text dimColor wrap="truncate-end">
          {truncate(lines[lines.length - 1] ?? '', ctx.width)}
        </Text>
      );
    }
    case 'user':
      return <Text wrap="truncate-end">{truncate(`${USER_PROMPT}${firstLine(item.text)}`, ctx.width)}</Text>;
    case 'notice':
      return <NoticeLine level={item.level} text={noticeRows(item.text, ctx.width).join('\n')} width={ctx.width} />;
  }
}

/** Which items the region draws: the streaming reply (the last assistant item) and the
 * newest compact items that fit, in transcript order, and how many older ones are hidden.
 * The walk stops at the first that does not fit (everything older is hidden with it): a
 * fan-out's turn holds a thousand cards, and measuring or even visiting each of them per
 * render cost more than drawing the few on screen. */
function liveLayout(items: readonly TranscriptItem[], ctx: ToolRenderContext, maxRows: number) {
  const streamIdx = lastAssistant(items);
  const budget = Math.max(1, maxRows);
  const textReserve = streamIdx >= 0 ? Math.min(MIN_TEXT_ROWS, budget) : 0;
  const newestFirst: number[] = [];
  let used = 0;
  let hidden = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    if (i === streamIdx) continue;
    const h = compactHeight(items[i], ctx);
    if (used + h > budget - textReserve - 1) {
      hidden = i + 1 - (streamIdx >= 0 && streamIdx < i ? 1 : 0);
      break;
    }
    newestFirst.push(i);
    used += h;
  }
  // In transcript order, the reply among them where it stands.
  const drawn = newestFirst.reverse();
  if (streamIdx >= 0) {
    const at = drawn.findIndex((i) => i > streamIdx);
    drawn.splice(at < 0 ? drawn.length : at, 0, streamIdx);
  }
  return { streamIdx, drawn, hidden, textRows: Math.max(1, budget - used - (hidden > 0 ? 1 : 0)) };
}

const isRunningTool = (item: TranscriptItem) => item.kind === 'tool' && item.status === 'running';

// Memoized: a key press re-renders the App, and the live cards (a tree's delegate cards
// among them) need not be laid out again for it.
export const LiveTurn = memo(function LiveTurn({ items, width, maxRows, turnRunning, showReasoning }: LiveTurnProps) {
  const reasoningMode = showReasoning ?? DEFAULT_SHOW_REASONING;
  const inner = Math.max(8, width - ASSISTANT_INDENT);
  // Card heights do not depend on the spinner's frame.
  const { streamIdx, drawn, hidden, textRows } = liveLayout(items, { width: inner, frame: 0, live: true }, maxRows);
  // Spinners tick while a card on screen runs (a hidden one draws nothing).
  const frame = useTicker(turnRunning && drawn.some((i) => isRunningTool(items[i])), SPINNER_INTERVAL_MS);
  if (items.length === 0) return null;
  const ctx: ToolRenderContext = { width: inner, frame, live: true };
  let tail: string[] = [];
  let cut = false;
  // The thinking line sits under the reply and takes its rows from the reply's.
  let thinkRows = 0;
  if (streamIdx >= 0) {
    const item = items[streamIdx] as Extract<TranscriptItem, { kind: 'assistant' }>;
    const text = item.text.trimEnd();
    thinkRows = liveReasoningRows(item, reasoningMode, inner, text ? textRows - 1 : textRows);
    if (text) {
      const res = tailLines(text, inner, Math.max(1, textRows - thinkRows));
      cut = res.truncated;
      tail = cut ? res.lines.slice(1) : res.lines;
    }
  }

  return (
    // Cards of the reply already in scrollback sit right under it, as they will once settled.
    <Box flexDirection="column" width={width} marginTop={items[0].kind === 'tool' ? 0 : 1}>
      {hidden > 0 && <Text dimColor>{t('ui:live.moreItems', { count: hidden })}</Text>}
      {drawn.map((i) => {
        const item = items[i];
        if (i === streamIdx) {
          if (tail.length === 0 && thinkRows === 0) return null;
          return (
            <Box key={item.id} flexDirection="column" paddingLeft={ASSISTANT_INDENT}>
              {cut && <Text dimColor>{t('ui:live.earlier')}</Text>}
              {tail.length > 0 && <Text>{tail.join('\n')}</Text>}
              {thinkRows > 0 && item.kind === 'assistant' && (
                <LiveThinkingLine item={item} mode={reasoningMode} width={inner} maxRows={thinkRows} />
              )}
            </Box>
          );
        }
        return (
          <Box key={item.id} paddingLeft={ASSISTANT_INDENT}>
            <CompactItem item={item} ctx={ctx} />
          </Box>
        );
      })}
    </Box>
  );
});

/** Rows LiveTurn may add besides `maxRows`: its top margin. */
export const LIVE_TURN_MARGIN = 1;
