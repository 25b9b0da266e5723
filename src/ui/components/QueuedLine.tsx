// The type-ahead message above the input (ui/hooks/useTypeAhead.ts): its first line, and
// how many more it has.
import React from 'react';
import { Text } from 'ink';
import { t } from '../../i18n/index.js';
import { sanitizeLine, truncate } from '../text/width.js';

export function QueuedLine({ text, width }: { text: string; width: number }) {
  const lines = text.split('\n');
  const more = lines.length > 1 ? ` ${t('ui:input.queuedMore', { count: lines.length - 1 })}` : '';
  const first = sanitizeLine(lines[0]);
  return (
    <Text color="cyan" dimColor wrap="truncate-end">
      {truncate(t('ui:input.queued', { text: `${truncate(first, Math.max(8, Math.floor(width / 3)))}${more}` }), width)}
    </Text>
  );
}
