// The pending approval at the head of the queue: which agent wants which tool, with what
// arguments, and the three answers. Only this prompt listens for y / a / n / Esc.
import React from 'react';
import { Box, Text } from 'ink';
import type { PendingApproval } from '../../model/controls.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { t } from '../../i18n/index.js';
import { prettyArgs } from '../text/format.js';
import { wrapText } from '../text/width.js';

export interface ApprovalPromptProps {
  runtime: RuntimeApi;
  approval: PendingApproval;
  /** Agent alias of the run asking. */
  agent: string;
  width: number;
  /** Most rows the arguments may take. */
  maxArgLines: number;
}

/** Rows besides the arguments: border (2), request line, choices line. */
const CHROME_ROWS = 4;

export { answerForKey } from './answerForKey.js';

function argLines(approval: PendingApproval, width: number, max: number): { lines: string[]; hidden: number } {
  const all = wrapText(prettyArgs(approval.args), Math.max(8, width - 4));
  if (all.length <= max) return { lines: all, hidden: 0 };
  const keep = Math.max(1, max - 1);
  return { lines: all.slice(0, keep), hidden: all.length - keep };
}

export function approvalPromptHeight(approval: PendingApproval, width: number, maxArgLines: number): number {
  const { lines, hidden } = argLines(approval, width, maxArgLines);
  return CHROME_ROWS + lines.length + (hidden > 0 ? 1 : 0);
}

export function ApprovalPrompt({ approval, agent, width, maxArgLines }: ApprovalPromptProps) {
  // Its keys (y / a / n / Esc) are handled by the chat's key layer (keys/bindings.ts),
  // which is listening before this prompt's first frame.
  const { lines, hidden } = argLines(approval, width, maxArgLines);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} width={width}>
      <Text wrap="truncate-end">
        <Text color="yellow" bold>{`${t('ui:approval.title')}: `}</Text>
        <Text>{t('ui:approval.request', { agent, tool: approval.tool })}</Text>
      </Text>
      {lines.map((line, i) => (
        <Text key={i} dimColor>
          {line}
        </Text>
      ))}
      {hidden > 0 && <Text dimColor>{t('ui:approval.moreLines', { count: hidden })}</Text>}
      <Text wrap="truncate-end">
        <Text color="green" bold>[y]</Text>
        <Text>{` ${t('ui:approval.allowOnce')}  `}</Text>
        <Text color="cyan" bold>[a]</Text>
        <Text>{` ${t('ui:approval.allowSession')}  `}</Text>
        <Text color="red" bold>[n/Esc]</Text>
        <Text>{` ${t('ui:approval.deny')}`}</Text>
      </Text>
    </Box>
  );
}
