// The approval prompt's state, and what the key bindings may do with it.
import type { PendingApproval } from '../../model/controls.js';

/** The approval prompt's own state: the highlighted answer, how far its arguments are
 * scrolled, and which ask it shows (`focusId`: one chosen in /agents, else the oldest).
 * Kept by the App (useApprovalView.ts), changed by the keys (keys.ts). */
export interface ApprovalView {
  index: number;
  scroll: number;
  focusId?: string;
  /** The prompt has the keys although a pane that holds them is open (Enter on the asking row). */
  armed?: boolean;
  /** ↑/↓ scroll the ask's diff (Tab gave it the focus) instead of moving the choice. */
  diffFocus?: boolean;
}

export interface ApprovalUi {
  get(): ApprovalView;
  set(next: ApprovalView): void;
  /** The ask the prompt shows now, from the store. */
  current(): PendingApproval | undefined;
  /** True while an open pane keeps the keys the prompt would take (the /agents pane). */
  deferred(): boolean;
  /** Shows this ask in the prompt and gives the prompt the keys. */
  focus(approvalId: string): void;
  /** Rows a PgUp/PgDn moves the ask's diff; 0 when it shows none taller than its window. */
  diffPage(): number;
}
