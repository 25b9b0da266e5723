import React from 'react';
import { Box, Text } from 'ink';
import { NOTICE_STYLE, type NoticeLevel } from '../theme.js';

export function NoticeLine({ level, text, width }: { level: NoticeLevel; text: string; width: number }) {
  const style = NOTICE_STYLE[level];
  return (
    <Box flexDirection="row" width={width}>
      <Box width={2} flexShrink={0}>
        <Text color={style.color}>{style.glyph}</Text>
      </Box>
      <Box flexGrow={1} flexShrink={1}>
        <Text color={level === 'info' ? undefined : style.color}>{text}</Text>
      </Box>
    </Box>
  );
}
