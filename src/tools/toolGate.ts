// The risk-profile tool gate for one tool name (entries may be globs: tools/toolGlob.ts), on its own so that modules the registry
// depends on (tools/authority.ts) can use it without importing the registry.
import type { RiskProfile } from '../config/types.js';
import { listNames } from './toolGlob.js';

export type ToolGate = Pick<RiskProfile, 'allowed_tools' | 'excluded_tools' | 'deny_all_tools'>;

export function toolAllowedByProfile(risk: ToolGate, name: string): boolean {
  if (risk.deny_all_tools) return false;
  if (risk.allowed_tools.length > 0 && !listNames(risk.allowed_tools, name)) return false;
  return !listNames(risk.excluded_tools, name);
}
