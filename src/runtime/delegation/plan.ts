// How one delegate child is built: its identity (a ToolCaller bound to the target), its
// tool registry (bounded: the caller's registry is the ceiling; independent: the target's
// own), its tracker, budget, timeout and iteration cap. Pure over the supervisor's config.
import type { AgentConfig, RiskProfile, RuntimeProfile } from '../../config/types.js';
import { defaultRiskProfile } from '../../config/defaults.js';
import { createActionTracker } from '../../tools/actionTracker.js';
import { narrowedDepthLimit, runtimeProfileOf } from '../../tools/delegate/gating.js';
import type { DelegateRequest } from '../../tools/delegate/services.js';
import { DELEGATE } from '../../tools/delegate/strings.js';
import { createDelegateTool } from '../../tools/delegate/tool.js';
import { ceilingsForBoundedHop, ceilingsForIndependentHop } from '../../tools/authority.js';
import { toolAllowedByProfile } from '../../tools/policy.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { ActionTracker, ToolCaller, ToolCallOrigin } from '../../tools/types.js';
import { ExecutionBudget } from '../executionBudget.js';
import type { ResolvedProvider, SupervisorCore } from '../supervisorTypes.js';

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

/** Records into both; the first limit reached refuses. */
function bothTrackers(own: ActionTracker, ceiling: ActionTracker): ActionTracker {
  return {
    recordAction: () => own.recordAction() ?? ceiling.recordAction(),
    recordCostUsd: (usd) => {
      own.recordCostUsd(usd);
      ceiling.recordCostUsd(usd);
    },
    costExceeded: () => own.costExceeded() ?? ceiling.costExceeded(),
  };
}

export class ChildPlanner {
  /** Independent targets keep their own tracker for the session. */
  private readonly trackers = new Map<string, ActionTracker>();

  constructor(private readonly supervisor: SupervisorCore) {}

  /** The caller's registry: the one its loop runs with. */
  callerRegistry(ctx: ToolCallOrigin): ToolRegistry {
    return this.supervisor.registryOf(ctx.runId, ctx.caller);
  }

  /** Throws with a message (unknown provider, ...) when the child cannot be built. */
  plan(ctx: ToolCallOrigin, req: DelegateRequest): ChildPlan {
    const { supervisor } = this;
    const config = supervisor.config;
    const agent = supervisor.agent(req.target);
    const runtime = runtimeProfileOf(config, agent);
    const agentic = runtime.agentic;
    // The gates refused an agentic target without a risk profile; a single-call target runs
    // no tools, so a deny-all stand-in is exact.
    const risk: RiskProfile = supervisor.riskProfile(agent.risk_profile) ?? {
      ...defaultRiskProfile(agent.risk_profile),
      deny_all_tools: true,
    };
    const resolved = supervisor.providerFor(agent);
    const caller: ToolCaller = {
      alias: agent.alias,
      risk,
      runtime,
      isSubagent: false,
      delegationDepth: ctx.caller.delegationDepth + 1,
      delegationDepthLimit: narrowedDepthLimit(ctx.caller, runtime),
      callerChain: [...ctx.caller.callerChain, agent.alias],
      // A bounded child is capped by its caller (and everything capping the caller); an
      // independent one drops its caller's own profile but not the ceilings above it.
      ceilings: req.mode === 'bounded' ? ceilingsForBoundedHop(ctx.caller) : ceilingsForIndependentHop(ctx.caller),
    };
    const bounded = req.mode === 'bounded';
    return {
      agent,
      resolved,
      caller,
      tools: agentic ? (bounded ? this.boundedTools(ctx, risk, agent.alias) : this.independentTools(caller)) : new ToolRegistry([]),
      agentic,
      runtime,
      timeoutSecs: childTimeoutSecs(runtime, config.delegation.run_timeout_secs),
      tracker: bounded ? ctx.tracker : this.independentTracker(ctx, agent.alias, risk),
      maxIterations: agentic ? runtime.max_tool_iterations : 1,
    };
  }

  /** The caller's registry ∩ the target's tool policy. delegate survives only when the
   * target's own policy allows delegation, as a target-bound, delegate-only instance. */
  boundedTools(ctx: ToolCallOrigin, risk: RiskProfile, target = ''): ToolRegistry {
    const ceiling = this.callerRegistry(ctx);
    const supervisor = this.supervisor;
    // An MCP tool also needs the target to see its server: the intersection of the two sets.
    const tools = ceiling
      .filter((tool) => toolAllowedByProfile(risk, tool.name) && supervisor.agentSeesTool(target, tool.name))
      .without(DELEGATE);
    const granted = risk.delegation_policy.mode === 'allow' && ceiling.has(DELEGATE) && toolAllowedByProfile(risk, DELEGATE);
    return granted ? tools.with(createDelegateTool({ delegateOnly: true })) : tools;
  }

  /** Like a fresh chat with the target, minus delegate: independent hops do not recurse.
   * Inside a bounded subtree the subtree's ceilings still cap it. */
  independentTools(caller: ToolCaller): ToolRegistry {
    return this.supervisor.ownTools(caller).without(DELEGATE);
  }

  /** The target's own tracker; inside a bounded subtree its actions and spend also count
   * against the caller's tracker, so the subtree's limits still hold. */
  private independentTracker(ctx: ToolCallOrigin, alias: string, risk: RiskProfile): ActionTracker {
    const own = this.trackerFor(alias, risk);
    return (ctx.caller.ceilings ?? []).length > 0 ? bothTrackers(own, ctx.tracker) : own;
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
