// A pane replaces the input area (the /agents pane, the transcript viewer, ...). It owns
// the keyboard while open: the chat's own bindings stand aside except the global ones.
import type { ReactNode } from 'react';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';

export interface PaneProps {
  runtime: RuntimeApi;
  width: number;
  /** Rows the pane may use; the live region must stay shorter than the terminal. */
  maxRows: number;
  close(): void;
  /** Shows this pending ask in the approval prompt and gives the prompt the keys. */
  focusApproval?(approvalId: string): void;
}

export interface Pane {
  id: string;
  render(props: PaneProps): ReactNode;
  /** While open, the approval prompt's keys are the pane's until it calls focusApproval. */
  holdsApprovalKeys?: boolean;
}
