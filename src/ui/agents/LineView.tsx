// Renders one laid-out line (see segments.ts) as a single terminal row.
import { memo } from 'react';
import { Text } from 'ink';
import type { Line } from './segments.js';

export const LineView = memo(function LineView({ line, inverse }: { line: Line; inverse?: boolean }) {
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
});
