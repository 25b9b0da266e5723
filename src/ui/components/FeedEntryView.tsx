// How a committed entry looks in scrollback: user line, markdown reply, tool card, notice.
import React, { memo } from 'react';
import { Box, Text } from 'ink';
import { t } from '../../i18n/index.js';
import type { FeedEntry } from '../state/feed.js';
import { ASSISTANT_INDENT, USER_PROMPT } from '../theme.js';
import { Markdown } from './Markdown.js';
import { NoticeLine } from './NoticeLine.js';
import { renderToolItem } from './renderToolItem.js';

export const FeedEntryView = memo(function FeedEntryView({ entry, width }: { entry: FeedEntry; width: number }) {
  if (entry.kind === 'local') {
    return (
      <Box marginTop={1}>
        <NoticeLine level={entry.level} text={entry.text} width={width} />
      </Box>
    );
  }
  const item = entry.item;
  switch (item.kind) {
    case 'user':
      return (
        <Box marginTop={1} flexDirection="row" width={width}>
          <Text color="cyan" bold>
            {USER_PROMPT}
          </Text>
          <Box flexGrow={1} flexShrink={1}>
            <Text bold>{item.text}</Text>
          </Box>
        </Box>
      );
    case 'assistant':
      return (
        <Box marginTop={1} flexDirection="column" paddingLeft={ASSISTANT_INDENT} width={width}>
          <Markdown text={item.text} width={Math.max(8, width - ASSISTANT_INDENT)} />
          {item.interrupted && <Text color="yellow">{`⊘ ${t('ui:transcript.interrupted')}`}</Text>}
        </Box>
      );
    case 'tool':
      return (
        <Box paddingLeft={ASSISTANT_INDENT} width={width}>
          {renderToolItem(item, { width: Math.max(8, width - ASSISTANT_INDENT), frame: 0, live: false })}
        </Box>
      );
    case 'notice':
      return (
        <Box marginTop={1}>
          <NoticeLine level={item.level} text={item.text} width={width} />
        </Box>
      );
  }
});
