// The pending approval at the head of the queue (or the one chosen in /agents): which run
// wants which tool — a child by its label and its path in the tree — with what arguments
// (all of them: PgUp/PgDn scroll long ones), and the answers as a list: ↑/↓ and Enter
// choose (allow once is highlighted first), y / a / n (a child's: y / c / t / n) answer
// directly, Esc denies. "1 of 3" says more asks wait behind it.
// A call whose tool previewed its change (write_file, edit_file) shows the diff instead of
// its arguments, in a window of fixed height (ApprovalDiff.tsx): PgUp/PgDn page through it
// wherever the focus is; Tab moves the focus to the diff, where ↑/↓ scroll it a line, and
// back to the choices. The choices keep ↑/↓ by default, so answering works as everywhere.
// The keys are handled by the chat's key layer (keys.ts, bound ahead of the chat's own), which is listening
// before this prompt's first frame; the hints come from the key table.
import React from 'react';
import { Box, Text } from 'ink';
import type { PendingApproval } from '../../model/controls.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { t } from '../../i18n/index.js';
import { approvalChoices } from './choices.js';
import type { KeyTable } from '../keys/keyTable.js';
import { prettyArgs } from '../text/format.js';
import { wrapText } from '../text/width.js';
import { ApprovalDiff, approvalDiff, diffMaxScroll, diffSectionHeight } from './ApprovalDiff.js';

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
  /** Rows of the diff window, when the ask carries a diff (default maxArgLines). */
  maxDiffRows?: number;
  /** The diff has the focus: ↑/↓ scroll it. */
  diffFocused?: boolean;
  /** The highlighted answer. */
  selected: number;
  /** First argument (or diff) row shown. */
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

/** How far the arguments (or the diff) can scroll. */
export function approvalMaxScroll(approval: PendingApproval, width: number, maxArgLines: number, maxDiffRows = maxArgLines): number {
  const diff = approvalDiff(approval);
  if (diff) return diffMaxScroll(diff, width, maxDiffRows);
  const all = allArgLines(approval, width).length;
  return all <= maxArgLines ? 0 : all - Math.max(1, maxArgLines - 1);
}

/** Whether the ask shows a diff taller than its window (Tab can give it the focus). */
export function approvalDiffScrollable(approval: PendingApproval, width: number, maxDiffRows: number): boolean {
  const diff = approvalDiff(approval);
  return diff !== undefined && diffMaxScroll(diff, width, maxDiffRows) > 0;
}

export function approvalPromptHeight(
  approval: PendingApproval,
  width: number,
  maxArgLines: number,
  scroll = 0,
  path?: string,
  deferred = false,
  maxDiffRows = maxArgLines,
): number {
  // Deferred: border (2), request line, path, hint — the pane below keeps its rows.
  if (deferred) return 3 + (path ? 1 : 0);
  const chrome = CHROME_ROWS + (path ? 1 : 0) + approvalChoices(approval).length;
  const diff = approvalDiff(approval);
  // The same height at every scroll position: the window is fixed.
  if (diff) return chrome + diffSectionHeight(approval, diff, width, maxDiffRows);
  const { lines, above, below } = argWindow(approval, width, maxArgLines, scroll);
  return chrome + lines.length + (above > 0 || below > 0 ? 1 : 0);
}

export function ApprovalPrompt(props: ApprovalPromptProps) {
  const { approval, agent, path, position, deferred, width, maxArgLines, selected, scroll, keys } = props;
  const diff = approvalDiff(approval);
  const diffRows = props.maxDiffRows ?? maxArgLines;
  const diffScrolls = diff !== undefined && diffMaxScroll(diff, width, diffRows) > 0;
  const diffFocused = diffScrolls && props.diffFocused === true;
  const { lines, above, below } = diff ? { lines: [], above: 0, below: 0 } : argWindow(approval, width, maxArgLines, scroll);
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
      {!deferred && diff && (
        <ApprovalDiff approval={approval} diff={diff} width={width} rows={diffRows} scroll={scroll} focused={diffFocused} keys={keys} />
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
          <Text key={choice.answer} wrap="truncate-end" inverse={i === selected && !diffFocused}>
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
          {hint(keys, diffScrolls, diffFocused)}
        </Text>
      )}
    </Box>
  );
}

/** The key hint: the list's keys, and with a diff taller than its window how to scroll it. */
function hint(keys: KeyTable, diffScrolls: boolean, diffFocused: boolean): string {
  const move = keys.labels(['approval.up', 'approval.down']);
  const choose = keys.label('approval.choose');
  if (!diffScrolls) return t('ui:approval.listHint', { move, choose });
  const page = keys.labels(['approval.scroll_up', 'approval.scroll_down']);
  const focus = keys.label('approval.focus');
  return diffFocused
    ? t('ui:approval.diffFocusedHint', { move, page, focus, choose })
    : t('ui:approval.diffHint', { move, page, focus, choose });
}
