// Session-wide controls and totals: pending approvals, the spawn pause, the runaway guard's
// state and the token/cost sums.
import type { ToolDisplay } from './toolDisplay.js';

export interface PendingApproval {
  id: string;
  runId: string;
  callId: string;
  tool: string;
  args: unknown;
  /** What the call would change (write_file / edit_file: the diff), neutralised; absent
   * when the tool has no preview or its arguments do not parse. */
  preview?: ToolDisplay;
  /** The call changes an existing file this run never read: the prompt says so. */
  unreadFile?: boolean;
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
  /** MCP servers' forms (elicitation/create) waiting for the operator, oldest first. */
  elicitations?: PendingElicitation[];
}

/** One field of a server's form, as the prompt edits it (mcp/elicitation.ts builds them). */
export type ElicitFieldSpec =
  | { key: string; title: string; description: string; required: boolean; kind: 'string'; default?: string }
  | { key: string; title: string; description: string; required: boolean; kind: 'number' | 'integer'; default?: number }
  | { key: string; title: string; description: string; required: boolean; kind: 'boolean'; default?: boolean }
  | {
      key: string;
      title: string;
      description: string;
      required: boolean;
      kind: 'enum';
      options: Array<{ value: string; label: string }>;
      default?: string;
    };

export interface PendingElicitation {
  id: string;
  /** The run whose MCP tool call the server asked from (the root when it cannot be told). */
  runId: string;
  /** 'shared' / 'unknown': attributed to the root because several runs had a call in flight
   * on the server, or none did; the prompt says so. */
  attribution: 'call' | 'shared' | 'unknown';
  server: string;
  /** Neutralised (text/untrusted.ts), as are the fields' titles, descriptions and labels. */
  message: string;
  fields: ElicitFieldSpec[];
  createdAt: number;
  /** URL mode: the server asks the operator to visit `url` (no fields). */
  mode?: 'url';
  /** Neutralised; an http(s) URL (others are declined before they reach the queue). */
  url?: string;
  /** The operator had arbor open the URL in the browser. */
  opened?: boolean;
}

export type ElicitationReply =
  { action: 'accept'; content: Record<string, string | number | boolean> } | { action: 'decline' } | { action: 'cancel' };

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
