// Session-wide controls and totals: pending approvals, the spawn pause, the runaway guard's
// state and the token/cost sums.

export interface PendingApproval {
  id: string;
  runId: string;
  callId: string;
  tool: string;
  args: unknown;
  createdAt: number;
}

export type ApprovalAnswer = 'allow_once' | 'allow_session' | 'deny';

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
