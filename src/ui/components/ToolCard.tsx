// The generic, compact tool card: status glyph, tool name, one-line argument summary and
// the first line of the result. Dedicated cards (spawn_subagent, delegate) plug in through
// renderToolItem.
import React from 'react';
import { Box, Text } from 'ink';
import type { ToolTranscriptItem } from '../../model/transcript.js';
import { diffCounts } from '../../text/diff.js';
import { toolArgsSummary } from '../text/format.js';
import { toolOutcome } from '../cards/outcome.js';
import { displayWidth, truncate } from '../text/width.js';
import { spinnerFrame, TOOL_COLORS, TOOL_GLYPHS } from '../theme.js';

export interface ToolCardProps {
  item: ToolTranscriptItem;
  width: number;
  /** Spinner frame for running cards. */
  frame: number;
}

export function toolGlyph(item: ToolTranscriptItem, frame: number): string {
  return item.status === 'running' ? spinnerFrame(frame) : TOOL_GLYPHS[item.status];
}

/** Rows a card takes (for the live-region budget). */
export function toolCardHeight(item: ToolTranscriptItem): number {
  return toolOutcome(item, 'failed') ? 2 : 1;
}

export function ToolCard({ item, width, frame }: ToolCardProps) {
  const color = TOOL_COLORS[item.status];
  const head = `${toolGlyph(item, frame)} ${item.name}`;
  const room = Math.max(1, width - displayWidth(head) - 1);
  // A file change reads as its path and +/- counts (write_file src/a.ts +12 −3).
  const diff = item.display?.kind === 'diff' ? item.display : undefined;
  const args = diff ? diff.path : toolArgsSummary(item.name, item.args, item.rawArgs);
  const outcome = toolOutcome(item, 'failed');
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text color={color}>{toolGlyph(item, frame)} </Text>
        <Text bold>{item.name}</Text>
        {args && <Text dimColor>{` ${truncate(args, diff ? Math.max(1, room - diffCounts(diff).length - 1) : room)}`}</Text>}
        {diff && (
          <>
            <Text color="green">{` +${diff.added}`}</Text>
            <Text color="red">{` \u2212${diff.removed}`}</Text>
          </>
        )}
      </Text>
      {outcome && (
        <Text wrap="truncate-end" color={item.status === 'error' ? 'red' : undefined} dimColor={item.status !== 'error'}>
          {truncate(`  └ ${outcome}`, width)}
        </Text>
      )}
    </Box>
  );
}
