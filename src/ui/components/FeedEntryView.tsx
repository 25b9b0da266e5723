// How a committed entry looks in scrollback: user line, markdown reply, tool card, notice.
import React, { memo } from 'react';
import { Box, Text } from 'ink';
import { t } from '../../i18n/index.js';
import { formatBytes } from '../../text/sizes.js';
import type { FeedEntry } from '../state/feed.js';
import { ASSISTANT_INDENT, USER_PROMPT } from '../theme.js';
import { Markdown } from './Markdown.js';
import { NoticeLine } from './NoticeLine.js';
import { renderToolItem } from './renderToolItem.js';
import { ScrollbackReasoning } from '../reasoning/ThinkingLine.js';
import { hasReasoning } from '../reasoning/lines.js';
import { DEFAULT_SHOW_REASONING } from '../reasoning/mode.js';
import type { ShowReasoning } from '../../config/types.js';

/** Most of one reply drawn into scrollback, in characters (~800 lines at 80 columns). A
 * longer reply (up to the runtime's max_reply_kb) is kept whole and shown in the viewer;
 * laying out and printing a megabyte of markdown would hold the chat for seconds. */
export const DRAWN_REPLY_CHARS = 64 * 1024;

/** The head of `text` that is drawn, cut at a line end when there is one near the cap. */
export function drawnPart(text: string): string {
  if (text.length <= DRAWN_REPLY_CHARS) return text;
  const nl = text.lastIndexOf('\n', DRAWN_REPLY_CHARS);
  return text.slice(0, nl > DRAWN_REPLY_CHARS / 2 ? nl : DRAWN_REPLY_CHARS);
}

export const FeedEntryView = memo(function FeedEntryView({
  entry,
  width,
  showReasoning: reasoningMode = DEFAULT_SHOW_REASONING,
}: {
  entry: FeedEntry;
  width: number;
  showReasoning?: ShowReasoning;
}) {
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
    case 'assistant': {
      // A step that only reasoned (then called tools) has nothing to show when reasoning is not shown.
      if (item.text === '' && !item.interrupted && (reasoningMode === 'hidden' || !hasReasoning(item))) return null;
      const drawn = drawnPart(item.text);
      return (
        <Box marginTop={1} flexDirection="column" paddingLeft={ASSISTANT_INDENT} width={width}>
          <ScrollbackReasoning item={item} mode={reasoningMode} width={Math.max(8, width - ASSISTANT_INDENT)} />
          {item.text !== '' && <Markdown text={drawn} width={Math.max(8, width - ASSISTANT_INDENT)} />}
          {drawn.length < item.text.length && (
            <Text dimColor>{t('ui:transcript.notDrawn', { size: formatBytes(item.text.length - drawn.length) })}</Text>
          )}
          {item.interrupted && <Text color="yellow">{`⊘ ${t('ui:transcript.interrupted')}`}</Text>}
        </Box>
      );
    }
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
