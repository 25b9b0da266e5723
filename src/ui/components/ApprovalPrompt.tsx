// The pending approval at the head of the queue (or the one chosen in /agents): which run
// wants which tool — a child by its label and its path in the tree — with what arguments
// (all of them: PgUp/PgDn scroll long ones), and the answers as a list: ↑/↓ and Enter
// choose (allow once is highlighted first), y / a / n (a child's: y / c / t / n) answer
// directly, Esc denies. "1 of 3" says more asks wait behind it.
// The keys are handled by the chat's key layer (keys/bindings.ts), which is listening
// before this prompt's first frame; the hints come from the key table.
import React from 'react';
import { Box, Text } from 'ink';
import type { PendingApproval } from '../../model/controls.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { t } from '../../i18n/index.js';
import { approvalChoices } from '../keys/bindings.js';
import type { KeyTable } from '../keys/keyTable.js';
import { prettyArgs } from '../text/format.js';
import { wrapText } from '../text/width.js';

export interface ApprovalPromptProps {
  runtime: RuntimeApi;
  approval: PendingApproval;
  /** The asking run: `main`, or a child's label. */
  agent: string;
  /** A child's place in the tree: `main › researcher#2 › researcher#3`. */
  path?: string;
  /** Its place in the queue of pending asks. */
  position?: { n: number; of: number };
  /** The /agents pane has the keys: only who asks for what, and how to answer (its row). */
  deferred?: boolean;
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

export function approvalPromptHeight(
  approval: PendingApproval,
  width: number,
  maxArgLines: number,
  scroll = 0,
  path?: string,
  deferred = false,
): number {
  // Deferred: border (2), request line, path, hint — the pane below keeps its rows.
  if (deferred) return 3 + (path ? 1 : 0);
  const { lines, above, below } = argWindow(approval, width, maxArgLines, scroll);
  return CHROME_ROWS + (path ? 1 : 0) + lines.length + (above > 0 || below > 0 ? 1 : 0) + approvalChoices(approval).length;
}

export function ApprovalPrompt(props: ApprovalPromptProps) {
  const { approval, agent, path, position, deferred, width, maxArgLines, selected, scroll, keys } = props;
  const { lines, above, below } = argWindow(approval, width, maxArgLines, scroll);
  const choices = approvalChoices(approval);
  const queued = position && position.of > 1 ? ` ${t('ui:approval.queue', { n: position.n, of: position.of })}` : '';
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} width={width}>
      <Text wrap="truncate-end">
        <Text color="yellow" bold>{`${t('ui:approval.title')}${queued}: `}</Text>
        <Text>{t('ui:approval.request', { agent, tool: approval.tool })}</Text>
      </Text>
      {path && (
        <Text wrap="truncate-end" color="cyan">
          {t('ui:approval.path', { path })}
        </Text>
      )}
      {!deferred &&
        lines.map((line, i) => (
          <Text key={i} dimColor>
            {line}
          </Text>
        ))}
      {!deferred && (above > 0 || below > 0) && (
        <Text dimColor wrap="truncate-end">
          {t('ui:approval.scrollHint', { above, below, keys: keys.labels(['approval.scroll_up', 'approval.scroll_down']) })}
        </Text>
      )}
      {!deferred &&
        choices.map((choice, i) => (
          <Text key={choice.answer} wrap="truncate-end" inverse={i === selected}>
            <Text>{i === selected ? '› ' : '  '}</Text>
            <Text
              color={choice.answer === 'deny' ? 'red' : choice.answer === 'allow_once' ? 'green' : 'cyan'}
              bold
            >{`[${keys.label(choice.command)}]`}</Text>
            <Text>{` ${t(choice.label)}`}</Text>
          </Text>
        ))}
      {deferred ? (
        <Text color="yellow" wrap="truncate-end">
          {t('ui:approval.heldByAgents', { open: keys.label('agents.open'), close: keys.label('agents.close') })}
        </Text>
      ) : (
        <Text dimColor wrap="truncate-end">
          {t('ui:approval.listHint', { move: keys.labels(['approval.up', 'approval.down']), choose: keys.label('approval.choose') })}
        </Text>
      )}
    </Box>
  );
}
