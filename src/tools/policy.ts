// The risk-profile tool gate. deny_all_tools hides everything; a non-empty allowed_tools
// keeps exact names only; excluded_tools always subtracts. An empty or omitted
// allowed_tools is the unrestricted state, never deny-all: that is what deny_all_tools is for.
import type { RiskProfile } from '../config/types.js';
import type { ToolRegistry } from './registry.js';

type ToolGate = Pick<RiskProfile, 'allowed_tools' | 'excluded_tools' | 'deny_all_tools'>;

export function toolAllowedByProfile(risk: ToolGate, name: string): boolean {
  if (risk.deny_all_tools) return false;
  if (risk.allowed_tools.length > 0 && !risk.allowed_tools.includes(name)) return false;
  return !risk.excluded_tools.includes(name);
}

export function applyPolicyToolFilter(registry: ToolRegistry, risk: ToolGate): ToolRegistry {
  return registry.filter((tool) => toolAllowedByProfile(risk, tool.name));
}
