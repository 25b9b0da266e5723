// Who calls a tool and from where: the identity and limits a call runs under. Below the
// tool contract (types.ts) and the service contracts (services.ts), which both speak of it.
import type { RiskProfile, RuntimeProfile } from '../config/types.js';

/** Counts actions and spend for `max_actions_per_hour` / `max_cost_per_day_cents`.
 * One instance is shared by a parent and every bounded child, so spawning cannot bypass it. */
export interface ActionTracker {
  /** Records one action; returns an error string when the hourly limit is exhausted. */
  recordAction(): string | undefined;
  recordCostUsd(usd: number): void;
  /** An error string when the daily cost ceiling is already spent, else undefined. */
  costExceeded(): string | undefined;
}

/** Who is calling a tool and under which rules. */
export interface ToolCaller {
  alias: string;
  risk: RiskProfile;
  runtime: RuntimeProfile;
  /** True for spawn_subagent children: the depth-1 cap. */
  isSubagent: boolean;
  /** Delegation hops from the root (0 for the root agent). */
  delegationDepth: number;
  /** The tightest max_delegation_depth along the chain so far. */
  delegationDepthLimit: number;
  /** Aliases from the root to this caller, for background task ownership. */
  callerChain: string[];
  /** Profiles of the bounded hops above this caller: each one caps tools, approvals, paths
   * and commands as tightly as the caller's own profile does (see tools/authority.ts).
   * Absent or empty for a root. */
  ceilings?: RiskProfile[];
}

/** One tool call's place in the run tree, as the runtime's services need it: which run
 * and call, its cancellation, its identity and its action tracker. Every ToolContext is one. */
export interface ToolCallOrigin {
  runId: string;
  toolCallId: string;
  signal: AbortSignal;
  caller: ToolCaller;
  tracker: ActionTracker;
}
