// Draws laid-out lines (see lines.ts), one terminal row each.
import React, { memo } from 'react';
import { Box, Text } from 'ink';
import type { Line } from './lines.js';

export const LineRow = memo(function LineRow({ line }: { line: Line }) {
  return (
    <Text wrap="truncate-end">
      {line.length === 0
        ? ' '
        : line.map((seg, i) => (
            <Text key={i} color={seg.color} bold={seg.bold} dimColor={seg.dim} inverse={seg.inverse}>
              {seg.text}
            </Text>
          ))}
    </Text>
  );
});

export function LinesView({ lines, width }: { lines: readonly Line[]; width?: number }) {
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((line, i) => (
        <LineRow key={i} line={line} />
      ))}
    </Box>
  );
}
