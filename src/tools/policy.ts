// The risk-profile tool gate. deny_all_tools hides everything; a non-empty allowed_tools
// keeps exact names only; excluded_tools always subtracts. An empty or omitted
// allowed_tools is the unrestricted state, never deny-all: that is what deny_all_tools is for.
import type { ToolRegistry } from './registry.js';
import { toolAllowedByProfile, type ToolGate } from './toolGate.js';

export { toolAllowedByProfile };

export function applyPolicyToolFilter(registry: ToolRegistry, risk: ToolGate): ToolRegistry {
  return registry.filter((tool) => toolAllowedByProfile(risk, tool.name));
}
