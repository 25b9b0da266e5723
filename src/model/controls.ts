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
  /** Fan-outs waiting for the operator ([delegation] confirm_fanout_over), oldest first. */
  fanouts?: PendingFanout[];
}

/** One child a model turn asked to start, as the fan-out confirmation shows it. */
export interface PlannedChild {
  /** The tool call that would start it (a parallel delegate call starts several). */
  callId: string;
  tool: 'spawn_subagent' | 'delegate';
  agent: string;
  /** "<provider_type>/<model>", or "?" for an unknown agent. */
  model: string;
  task: string;
  /** Estimated from the prompt sizes (system prompt and task). */
  inputTokens: number;
  /** The prompt's input cost at the model's pricing; undefined when it is not priced. */
  costUsd?: number;
}

export interface PendingFanout {
  id: string;
  runId: string;
  /** confirm_fanout_over. */
  limit: number;
  children: PlannedChild[];
  /** Sum of the priced children's estimates; undefined when none is priced. */
  estimatedUsd?: number;
  /** Children whose model has no pricing (their cost is unknown). */
  unpriced: number;
  createdAt: number;
}

export interface SessionTotals {
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}
