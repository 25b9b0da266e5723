// How one delegate child is built: its identity (a ToolCaller bound to the target), its
// tool registry (bounded: the caller's registry is the ceiling; independent: the target's
// own), its tracker, budget, timeout and iteration cap. Pure over the supervisor's config.
import type { AgentConfig, RiskProfile, RuntimeProfile } from '../config/types.js';
import { defaultRiskProfile } from '../config/defaults.js';
import { createActionTracker } from '../tools/actionTracker.js';
import { narrowedDepthLimit, runtimeProfileOf } from '../tools/delegate/gating.js';
import type { DelegateRequest } from '../tools/delegate/services.js';
import { DELEGATE } from '../tools/delegate/strings.js';
import { createDelegateTool } from '../tools/delegate/tool.js';
import { toolAllowedByProfile } from '../tools/policy.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ActionTracker, ToolCaller, ToolContext } from '../tools/types.js';
import { ExecutionBudget } from './executionBudget.js';
import type { ResolvedProvider, Supervisor } from './supervisor.js';

export interface ChildPlan {
  agent: AgentConfig;
  resolved: ResolvedProvider;
  caller: ToolCaller;
  tools: ToolRegistry;
  agentic: boolean;
  runtime: RuntimeProfile;
  /** Active-time limit; undefined = none. */
  timeoutSecs?: number;
  tracker: ActionTracker;
  /** Model calls allowed: the target's max_tool_iterations, or 1 without a tool loop. */
  maxIterations: number;
}

/** The child's limit: agentic targets use agentic_timeout_secs, single-call targets
 * delegation_timeout_secs; either falls back to [delegation] run_timeout_secs. */
export function childTimeoutSecs(runtime: RuntimeProfile, runTimeoutSecs: number): number | undefined {
  const secs = runtime.agentic
    ? (runtime.agentic_timeout_secs ?? runtime.delegation_timeout_secs ?? runTimeoutSecs)
    : (runtime.delegation_timeout_secs ?? runTimeoutSecs);
  return secs > 0 ? secs : undefined;
}

/** A budget minted from the target's own profile (independent and background children). */
export function ownBudget(runtime: RuntimeProfile): ExecutionBudget | undefined {
  return runtime.max_execution_tree_iterations !== undefined ? new ExecutionBudget(runtime.max_execution_tree_iterations) : undefined;
}

export class ChildPlanner {
  /** The registry each live delegate child runs with, so a nested bounded hop is capped by
   * its caller's real registry rather than by a fresh one. */
  private readonly registries = new Map<string, ToolRegistry>();
  /** Independent targets keep their own tracker for the session. */
  private readonly trackers = new Map<string, ActionTracker>();

  constructor(private readonly supervisor: Supervisor) {}

  remember(runId: string, tools: ToolRegistry): void {
    this.registries.set(runId, tools);
  }

  forget(runId: string): void {
    this.registries.delete(runId);
  }

  /** The caller's registry: its own policy-filtered tools, capped by the nearest recorded
   * registry up its run chain (a subagent of a delegate child inherits that child's cap). */
  callerRegistry(ctx: ToolContext): ToolRegistry {
    const { deps, store } = this.supervisor;
    const own = deps.filterTools(deps.baseTools, ctx.caller.risk);
    const runs = store.getState().runs;
    for (let id: string | undefined = ctx.runId; id !== undefined; id = runs[id]?.parentRunId) {
      const recorded = this.registries.get(id);
      if (recorded) return own.filter((tool) => recorded.has(tool.name));
    }
    return own;
  }

  /** Throws with a message (unknown provider, ...) when the child cannot be built. */
  plan(ctx: ToolContext, req: DelegateRequest): ChildPlan {
    const { supervisor } = this;
    const config = supervisor.config;
    const agent = supervisor.agent(req.target);
    const runtime = runtimeProfileOf(config, agent);
    const agentic = runtime.agentic;
    // The gates refused an agentic target without a risk profile; a single-call target runs
    // no tools, so a deny-all stand-in is exact.
    const risk: RiskProfile = supervisor.riskProfile(agent.risk_profile) ?? { ...defaultRiskProfile(agent.risk_profile), deny_all_tools: true };
    const resolved = supervisor.deps.providerFor(agent);
    const caller: ToolCaller = {
      alias: agent.alias,
      risk,
      runtime,
      isSubagent: false,
      delegationDepth: ctx.caller.delegationDepth + 1,
      delegationDepthLimit: narrowedDepthLimit(ctx.caller, runtime),
      callerChain: [...ctx.caller.callerChain, agent.alias],
    };
    const bounded = req.mode === 'bounded';
    return {
      agent,
      resolved,
      caller,
      tools: agentic ? (bounded ? this.boundedTools(ctx, risk) : this.independentTools(risk)) : new ToolRegistry([]),
      agentic,
      runtime,
      timeoutSecs: childTimeoutSecs(runtime, config.delegation.run_timeout_secs),
      tracker: bounded ? ctx.tracker : this.trackerFor(agent.alias, risk),
      maxIterations: agentic ? runtime.max_tool_iterations : 1,
    };
  }

  /** The caller's registry ∩ the target's tool policy. delegate survives only when the
   * target's own policy allows delegation, as a target-bound, delegate-only instance. */
  boundedTools(ctx: ToolContext, risk: RiskProfile): ToolRegistry {
    const ceiling = this.callerRegistry(ctx);
    const tools = ceiling.filter((tool) => toolAllowedByProfile(risk, tool.name)).without(DELEGATE);
    const granted = risk.delegation_policy.mode === 'allow' && ceiling.has(DELEGATE) && toolAllowedByProfile(risk, DELEGATE);
    return granted ? tools.with(createDelegateTool({ delegateOnly: true })) : tools;
  }

  /** Like a fresh chat with the target, minus delegate: independent hops do not recurse. */
  independentTools(risk: RiskProfile): ToolRegistry {
    const { deps } = this.supervisor;
    return deps.filterTools(deps.baseTools, risk).without(DELEGATE);
  }

  private trackerFor(alias: string, risk: RiskProfile): ActionTracker {
    let tracker = this.trackers.get(alias);
    if (!tracker) {
      tracker = createActionTracker(risk);
      this.trackers.set(alias, tracker);
    }
    return tracker;
  }
}
