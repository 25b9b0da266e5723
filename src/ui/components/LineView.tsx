// Draws laid-out lines (ui/text/segments.ts), one terminal row each: the agents pane, the
// transcript viewer and the cards all lay their lines out themselves and draw them here.
import React, { memo } from 'react';
import { Box, Text } from 'ink';
import { sameLine, type Line } from '../text/segments.js';

interface LineViewProps {
  line: Line;
  /** The whole row inverted (a selected list row). */
  inverse?: boolean;
}

// Compared by content: rows are formatted afresh on every refresh and key press, and most
// come out the same; skipping those keeps a key's frame to the rows it changed.
export const LineView = memo(
  function LineView({ line, inverse }: LineViewProps) {
    return (
      <Text wrap="truncate-end" inverse={inverse}>
        {line.length === 0
          ? ' '
          : line.map((seg, i) => (
              <Text key={i} color={seg.color} dimColor={seg.dim && !inverse} bold={seg.bold} inverse={seg.inverse}>
                {seg.text}
              </Text>
            ))}
      </Text>
    );
  },
  (a: LineViewProps, b: LineViewProps) => a.inverse === b.inverse && sameLine(a.line, b.line),
);

export function LinesView({ lines, width }: { lines: readonly Line[]; width?: number }) {
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((line, i) => (
        <LineView key={i} line={line} />
      ))}
    </Box>
  );
}
