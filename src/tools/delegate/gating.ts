// The gates a delegation passes before any target runs, in the reference's order:
// the caller's delegation policy, then reachability (same-profile peers + explicit
// `delegates`, never a disabled target, never the caller itself), then depth, then the
// target's own policy (agentic without a risk profile, always_ask without an operator).
import type { AgentConfig, ArborConfig, DelegateMode, RiskProfile, RuntimeProfile } from '../../config/types.js';
import type { ToolCaller } from '../types.js';
import {
  alwaysAskRefusal,
  crossProfileRefusal,
  depthRefusal,
  disabledRefusal,
  forbiddenRefusal,
  missingRiskProfile,
  peersDisabledRefusal,
  selfRefusal,
  unknownAgent,
} from './strings.js';

export interface RosterEntry {
  alias: string;
  mode: DelegateMode;
  description?: string;
}

/** A profile an agent names but the config lacks falls back to the default one, as the
 * supervisor does for the agents it runs. */
export function runtimeProfileOf(config: ArborConfig, agent: AgentConfig): RuntimeProfile {
  return config.runtime_profiles[agent.runtime_profile] ?? config.runtime_profiles.default;
}

export function riskProfileOf(config: ArborConfig, agent: AgentConfig): RiskProfile | undefined {
  return Object.hasOwn(config.risk_profiles, agent.risk_profile) ? config.risk_profiles[agent.risk_profile] : undefined;
}

export function delegationAllowed(caller: ToolCaller): boolean {
  return caller.risk.delegation_policy.mode === 'allow';
}

/** The agents `callerAlias` may delegate to, in config order. An explicit entry sets the
 * mode; a same-profile peer that is not listed is bounded. */
export function reachableRoster(config: ArborConfig, callerAlias: string): RosterEntry[] {
  const me = config.agents[callerAlias];
  if (!me) return [];
  const explicit = new Map(me.delegates.map((d) => [d.agent, d.mode] as const));
  const out: RosterEntry[] = [];
  for (const agent of Object.values(config.agents)) {
    if (agent.alias === callerAlias || !agent.enabled) continue;
    const peer = me.delegate_same_risk_profile && agent.risk_profile === me.risk_profile;
    const mode = explicit.get(agent.alias) ?? (peer ? 'bounded' : undefined);
    if (mode) out.push({ alias: agent.alias, mode, description: agent.description });
  }
  return out;
}

export function policyRefusal(caller: ToolCaller): string | undefined {
  return delegationAllowed(caller) ? undefined : forbiddenRefusal(caller.alias, caller.risk.name);
}

export type Reach = { ok: true; mode: DelegateMode } | { ok: false; error: string };

export function reach(config: ArborConfig, callerAlias: string, target: string): Reach {
  const roster = reachableRoster(config, callerAlias);
  if (!Object.hasOwn(config.agents, target))
    return {
      ok: false,
      error: unknownAgent(
        target,
        roster.map((r) => r.alias),
      ),
    };
  if (target === callerAlias) return { ok: false, error: selfRefusal(callerAlias) };
  const agent = config.agents[target];
  if (!agent.enabled) return { ok: false, error: disabledRefusal(target, callerAlias) };
  const entry = roster.find((r) => r.alias === target);
  if (entry) return { ok: true, mode: entry.mode };
  const me = config.agents[callerAlias];
  if (!me || me.risk_profile !== agent.risk_profile) {
    return { ok: false, error: crossProfileRefusal(target, callerAlias, me?.risk_profile ?? '', agent.risk_profile) };
  }
  return { ok: false, error: peersDisabledRefusal(target, callerAlias) };
}

export function depthLimitRefusal(caller: ToolCaller): string | undefined {
  return caller.delegationDepth >= caller.delegationDepthLimit
    ? depthRefusal(caller.delegationDepth, caller.delegationDepthLimit)
    : undefined;
}

/** The limit a granted hop carries: a chain can only tighten. */
export function narrowedDepthLimit(caller: ToolCaller, target: RuntimeProfile): number {
  return Math.min(caller.delegationDepthLimit, target.max_delegation_depth);
}

export function targetPolicyRefusal(config: ArborConfig, callerAlias: string, target: string, mode: DelegateMode): string | undefined {
  const agent = config.agents[target];
  const agentic = runtimeProfileOf(config, agent).agentic;
  const risk = riskProfileOf(config, agent);
  if (!risk) return agentic ? missingRiskProfile(target, agent.risk_profile) : undefined;
  // No approval routes exist here: a child that could need a decision has nobody to ask.
  // A non-agentic bounded target runs no tools, so it stays available.
  if (risk.always_ask.length > 0 && (mode === 'independent' || agentic)) {
    return alwaysAskRefusal(target, mode === 'independent' ? 'independent' : 'bounded agentic', callerAlias, risk.name, risk.always_ask);
  }
  return undefined;
}
