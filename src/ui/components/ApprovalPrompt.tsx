// The pending approval at the head of the queue: which run wants which tool, with what
// arguments (all of them: PgUp/PgDn scroll long ones), and the answers as a list: ↑/↓ and
// Enter choose (allow once is highlighted first), y / a / n answer directly, Esc denies.
// The keys are handled by the chat's key layer (keys/bindings.ts), which is listening
// before this prompt's first frame; the hints come from the key table.
import React from 'react';
import { Box, Text } from 'ink';
import type { PendingApproval } from '../../model/controls.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { t } from '../../i18n/index.js';
import { APPROVAL_CHOICES } from '../keys/bindings.js';
import type { KeyTable } from '../keys/keyTable.js';
import { prettyArgs } from '../text/format.js';
import { wrapText } from '../text/width.js';

export interface ApprovalPromptProps {
  runtime: RuntimeApi;
  approval: PendingApproval;
  /** The asking run: `main`, or a child's label. */
  agent: string;
  width: number;
  /** Most rows the arguments may take. */
  maxArgLines: number;
  /** The highlighted answer. */
  selected: number;
  /** First argument row shown. */
  scroll: number;
  keys: KeyTable;
}

/** Rows besides the arguments and the choices: border (2), request line, key hint. */
const CHROME_ROWS = 4;

function allArgLines(approval: PendingApproval, width: number): string[] {
  return wrapText(prettyArgs(approval.args), Math.max(8, width - 4));
}

/** The rows of arguments shown from `scroll`, and what is above / below them. */
function argWindow(approval: PendingApproval, width: number, max: number, scroll: number) {
  const all = allArgLines(approval, width);
  if (all.length <= max) return { lines: all, above: 0, below: 0 };
  const room = Math.max(1, max - 1);
  const top = Math.max(0, Math.min(scroll, all.length - room));
  return { lines: all.slice(top, top + room), above: top, below: all.length - top - room };
}

/** How far the arguments can scroll. */
export function approvalMaxScroll(approval: PendingApproval, width: number, maxArgLines: number): number {
  const all = allArgLines(approval, width).length;
  return all <= maxArgLines ? 0 : all - Math.max(1, maxArgLines - 1);
}

export function approvalPromptHeight(approval: PendingApproval, width: number, maxArgLines: number, scroll = 0): number {
  const { lines, above, below } = argWindow(approval, width, maxArgLines, scroll);
  return CHROME_ROWS + lines.length + (above > 0 || below > 0 ? 1 : 0) + APPROVAL_CHOICES.length;
}

export function ApprovalPrompt({ approval, agent, width, maxArgLines, selected, scroll, keys }: ApprovalPromptProps) {
  const { lines, above, below } = argWindow(approval, width, maxArgLines, scroll);
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
      {(above > 0 || below > 0) && (
        <Text dimColor wrap="truncate-end">
          {t('ui:approval.scrollHint', { above, below, keys: keys.labels(['approval.scroll_up', 'approval.scroll_down']) })}
        </Text>
      )}
      {APPROVAL_CHOICES.map((choice, i) => (
        <Text key={choice.answer} wrap="truncate-end" inverse={i === selected}>
          <Text>{i === selected ? '› ' : '  '}</Text>
          <Text
            color={choice.answer === 'deny' ? 'red' : choice.answer === 'allow_once' ? 'green' : 'cyan'}
            bold
          >{`[${keys.label(choice.command)}]`}</Text>
          <Text>{` ${t(choice.label)}`}</Text>
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {t('ui:approval.listHint', { move: keys.labels(['approval.up', 'approval.down']), choose: keys.label('approval.choose') })}
      </Text>
    </Box>
  );
}
