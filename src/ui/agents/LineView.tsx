// Renders one laid-out line (see segments.ts) as a single terminal row.
import { memo } from 'react';
import { Text } from 'ink';
import { sameLine, type Line } from './segments.js';

interface LineViewProps {
  line: Line;
  inverse?: boolean;
}

// Compared by content: rows are formatted afresh on every refresh and key press, and most
// come out the same; skipping those keeps a key's frame to the rows it changed.
export const LineView = memo(function LineView({ line, inverse }: LineViewProps) {
  return (
    <Text wrap="truncate-end" inverse={inverse}>
      {line.map((seg, i) => (
        <Text key={i} color={seg.color} dimColor={seg.dim && !inverse} bold={seg.bold}>
          {seg.text}
        </Text>
      ))}
      {line.length === 0 ? ' ' : ''}
    </Text>
  );
}, (a: LineViewProps, b: LineViewProps) => a.inverse === b.inverse && sameLine(a.line, b.line));
