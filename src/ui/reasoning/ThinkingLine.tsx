// The reasoning of one reply in the chat. Live (under the streaming reply): a dim
// "thinking… N tokens" line, and with show_reasoning = "expanded" the last lines of the
// reasoning above it. In scrollback (above the answer): the head with a hint to the viewer,
// or with "expanded" the whole text. Hidden: nothing.
import React from 'react';
import { Box } from 'ink';
import { t } from '../../i18n/index.js';
import type { TranscriptItem } from '../../model/transcript.js';
import { LineView } from '../components/LineView.js';
import { useKeyTable } from '../keys/keyTable.js';
import { fitLine, type Line } from '../text/segments.js';
import { hasReasoning, reasoningBody, reasoningHead } from './lines.js';
import type { ShowReasoning } from '../../config/types.js';

type AssistantItem = Extract<TranscriptItem, { kind: 'assistant' }>;

/** Rows of reasoning text the live region shows with "expanded" (besides the head). */
export const LIVE_REASONING_ROWS = 3;

/** Rows the live thinking line takes for this item and mode. */
export function liveReasoningRows(item: AssistantItem, mode: ShowReasoning, width: number, maxRows: number): number {
  return liveLines(item, mode, width, maxRows).length;
}

function liveLines(item: AssistantItem, mode: ShowReasoning, width: number, maxRows: number): Line[] {
  if (mode === 'hidden' || !hasReasoning(item) || maxRows < 1) return [];
  const head = fitLine([{ text: reasoningHead(item), dim: true }], width);
  if (mode !== 'expanded' || maxRows < 2) return [head];
  const body = reasoningBody(item, width, 2, Math.min(LIVE_REASONING_ROWS, maxRows - 1), true).slice(-(maxRows - 1));
  return [...body, head];
}

export function LiveThinkingLine({
  item,
  mode,
  width,
  maxRows,
}: {
  item: AssistantItem;
  mode: ShowReasoning;
  width: number;
  maxRows: number;
}) {
  const lines = liveLines(item, mode, width, maxRows);
  if (lines.length === 0) return null;
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <LineView key={i} line={line} />
      ))}
    </Box>
  );
}

export function ScrollbackReasoning({ item, mode, width }: { item: AssistantItem; mode: ShowReasoning; width: number }) {
  const keys = useKeyTable();
  if (mode === 'hidden' || !hasReasoning(item)) return null;
  const head: Line = [{ text: reasoningHead(item), dim: true }];
  if (mode === 'collapsed') head.push({ text: ` ${t('reasoning:collapsedHint', { keys: keys.label('chat.transcript') })}`, dim: true });
  const lines = mode === 'expanded' ? [fitLine(head, width), ...reasoningBody(item, width, 2)] : [fitLine(head, width)];
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <LineView key={i} line={line} />
      ))}
    </Box>
  );
}
