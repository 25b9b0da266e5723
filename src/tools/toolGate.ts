// The risk-profile tool gate for one tool name, on its own so that modules the registry
// depends on (tools/authority.ts) can use it without importing the registry.
import type { RiskProfile } from '../config/types.js';

export type ToolGate = Pick<RiskProfile, 'allowed_tools' | 'excluded_tools' | 'deny_all_tools'>;

export function toolAllowedByProfile(risk: ToolGate, name: string): boolean {
  if (risk.deny_all_tools) return false;
  if (risk.allowed_tools.length > 0 && !risk.allowed_tools.includes(name)) return false;
  return !risk.excluded_tools.includes(name);
}
