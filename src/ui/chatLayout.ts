// The chat's row budget, bottom up: status bar, quota banner, flash line, input (or pane),
// the asks (approval, fan-out, MCP form), then the live turn gets what is left, so the
// live region stays shorter than the terminal (Ink clears the screen when it is not).
// One row stays free for the cursor line Ink leaves below.
import { approvalDiffScrollable, approvalMaxScroll, approvalPromptHeight } from './approval/ApprovalPrompt.js';
import { LIVE_TURN_MARGIN } from './components/LiveTurn.js';
import { statusBarHeight } from './components/StatusBar.js';
import { formOf } from './elicitation/formState.js';
import { elicitationPromptHeight } from './elicitation/ElicitationPrompt.js';
import { fanoutPromptHeight } from './fanout/FanoutPrompt.js';
import type { PendingAsks } from './asks/usePendingAsks.js';

export interface ChatLayoutInput {
  columns: number;
  rows: number;
  retryNotice: string | undefined;
  quotaRows: number;
  flashShown: boolean;
  asks: Pick<PendingAsks, 'approval' | 'approvalPath' | 'approvalDeferred' | 'approvalView' | 'fanout' | 'elicitation' | 'elicitForm'>;
  /** Items of the turn in flight. */
  liveCount: number;
  paneOpen: boolean;
  /** A type-ahead message waits above the input. */
  queued: boolean;
  /** The input line's height at a width, in at most `maxLines` lines of text. */
  inputHeight(width: number, maxLines: number): number;
}

export interface ChatLayout {
  width: number;
  approvalArgRows: number;
  approvalDiffRows: number;
  /** How far the shown ask's arguments can scroll; rows a page moves its diff (0: none). */
  approvalScrollMax: number;
  approvalDiffPage: number;
  inputMaxLines: number;
  fanoutList: number;
  elicitMessageRows: number;
  paneRows: number;
  liveRows: number;
}

export function chatLayout(l: ChatLayoutInput): ChatLayout {
  const { rows } = l;
  const { approval, approvalPath, approvalDeferred, fanout, elicitation } = l.asks;
  const width = Math.max(10, l.columns);
  const statusRows = statusBarHeight(l.retryNotice, width);
  const flashRows = l.flashShown ? 1 : 0;
  const approvalArgRows = Math.max(1, Math.min(12, Math.floor(rows / 3)));
  // A diff gets a taller window (up to half the screen), sized so the prompt's other rows,
  // one input row, one live row and the status bar stay on screen; its height does not
  // change as it scrolls. The prompt with a one-row window, less that row, is the rest.
  const approvalAround = approval ? approvalPromptHeight(approval, width, approvalArgRows, 0, approvalPath, false, 1) - 1 : 0;
  const approvalSpare = rows - (1 + approvalAround) - statusRows - l.quotaRows - flashRows - LIVE_TURN_MARGIN - 4;
  const approvalDiffRows = Math.max(1, Math.min(Math.floor(rows / 2), approvalSpare));
  const approvalRows = approval
    ? 1 +
      approvalPromptHeight(approval, width, approvalArgRows, l.asks.approvalView.scroll, approvalPath, approvalDeferred, approvalDiffRows)
    : 0;
  const inputMaxLines = Math.max(1, Math.min(6, Math.floor(rows / 4)));
  const fanoutList = Math.max(1, Math.min(10, Math.floor(rows / 3)));
  const fanoutRows = fanout ? 1 + fanoutPromptHeight(fanout, fanoutList) : 0;
  const elicitMessageRows = Math.max(1, Math.min(6, Math.floor(rows / 4)));
  const elicitRows = elicitation
    ? 1 + elicitationPromptHeight(elicitation, l.asks.elicitForm ?? formOf(elicitation), width, elicitMessageRows)
    : 0;
  const fixedRows = statusRows + l.quotaRows + flashRows + approvalRows + fanoutRows + elicitRows + LIVE_TURN_MARGIN + 1;
  const paneRows = Math.max(3, rows - fixedRows - 1 - Math.min(4, l.liveCount > 0 ? 4 : 0));
  const queuedRows = !l.paneOpen && l.queued ? 1 : 0;
  const inputRows = l.paneOpen ? 1 + paneRows : 1 + queuedRows + l.inputHeight(width, inputMaxLines);
  return {
    width,
    approvalArgRows,
    approvalDiffRows,
    approvalScrollMax: approval ? approvalMaxScroll(approval, width, approvalArgRows, approvalDiffRows) : 0,
    approvalDiffPage: approval && approvalDiffScrollable(approval, width, approvalDiffRows) ? Math.max(1, approvalDiffRows - 1) : 0,
    inputMaxLines,
    fanoutList,
    elicitMessageRows,
    paneRows,
    liveRows: Math.max(1, rows - fixedRows - inputRows),
  };
}
