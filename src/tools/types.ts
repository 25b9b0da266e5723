// The tool contract. A tool is a name, a schema the model reads, and a function that
// returns a ToolResult: `output` on success, `error` (a string the model reads) on failure.
import type { ArborConfig, RiskProfile, RuntimeProfile } from '../config/types.js';
import type { ToolSpec } from '../providers/types.js';

export interface ToolResult {
  success: boolean;
  output: string;
  error?: string;
}

export function ok(output: string): ToolResult {
  return { success: true, output };
}

export function fail(error: string): ToolResult {
  return { success: false, output: '', error };
}

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

export interface ToolContext {
  runId: string;
  toolCallId: string;
  signal: AbortSignal;
  caller: ToolCaller;
  config: ArborConfig;
  /** Workspace directory (shell cwd, relative paths resolve against it). */
  cwd: string;
  tracker: ActionTracker;
  /** Supervisor services for tools that create runs (spawn_subagent, delegate). Opaque here
   * so tools/ stays below runtime/ in the import graph. */
  services: unknown;
}

export interface Tool {
  readonly name: string;
  /** Built per caller so descriptions can state the real limits from config. */
  spec(caller: ToolCaller, config: ArborConfig): ToolSpec;
  /** Whether a call asks the operator by default (write_file, shell) or not (reads, spawns). */
  readonly asksByDefault: boolean;
  /** Exempt from the per-turn duplicate-call guard (spawn_subagent, delegate). */
  readonly duplicateExempt?: boolean;
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
}
