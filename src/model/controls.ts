// Session-wide controls and totals: pending approvals, the spawn pause, the runaway guard's
// state and the token/cost sums.

export interface PendingApproval {
  id: string;
  runId: string;
  callId: string;
  tool: string;
  args: unknown;
  createdAt: number;
  /** A child's ask ([delegation] subagent_approvals = "ask"): answered with allow once, for
   * this child, for the whole tree this turn, or deny. */
  isChild?: boolean;
}

/** allow_session: the root's prompt; allow_child / allow_tree: a child's (per tool name). */
export type ApprovalAnswer = 'allow_once' | 'allow_session' | 'allow_child' | 'allow_tree' | 'deny';

export interface RunawayState {
  tripped: boolean;
  /** Which threshold tripped, its limit and the measured value. */
  threshold?: string;
  limit?: number;
  measured?: number;
  rootRunId?: string;
  action?: string;
  at?: number;
}

export interface Controls {
  spawnPaused: boolean;
  approvals: PendingApproval[];
  runaway: RunawayState;
}

export interface SessionTotals {
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}
