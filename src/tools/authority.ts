// What a caller may do: its own risk profile, capped by the profile of every bounded hop
// above it (ToolCaller.ceilings). Every check that asks "may this caller use tool X, have
// it auto-approved, touch path P, run command C" goes through here, so a ceiling set at
// one hop holds at every later hop — bounded, independent or spawn_subagent — without
// special cases at the call sites.
//
// How ceilings grow (built where child identities are built: runtime/delegation/plan.ts,
// runtime/subagents.ts):
// - root: none;
// - bounded hop: the caller's ceilings plus the caller's own profile;
// - independent hop: the caller's ceilings only (the target's own policy replaces the
//   caller's, but whatever bounded the caller still binds the target);
// - spawn_subagent: the parent's ceilings (same identity).
import type { RiskProfile } from '../config/types.js';
import { approvalRequirement, type ApprovalRequirement } from './approvalPolicy.js';
import { resolveConfinedPath, type PathGuardResult } from './pathGuard.js';
import { toolAllowedByProfile } from './toolGate.js';
import type { Tool, ToolCaller } from './types.js';

type Authority = Pick<ToolCaller, 'risk' | 'ceilings'>;

/** The caller's own profile first, then every ceiling; all of them must agree. */
export function bindingProfiles(caller: Authority): RiskProfile[] {
  const out = [caller.risk];
  for (const c of caller.ceilings ?? []) if (!out.includes(c)) out.push(c);
  return out;
}

export function ceilingsForBoundedHop(caller: Authority): RiskProfile[] {
  return bindingProfiles(caller);
}

export function ceilingsForIndependentHop(caller: Authority): RiskProfile[] {
  return [...(caller.ceilings ?? [])];
}

export function toolWithinAuthority(caller: Authority, name: string): boolean {
  return bindingProfiles(caller).every((p) => toolAllowedByProfile(p, name));
}

/** `registry` (already filtered by the caller's own profile) cut down to what every
 * ceiling also admits. */
export function capToCeilings<R extends { filter(keep: (tool: Tool) => boolean): R }>(registry: R, caller: Authority): R {
  const ceilings = caller.ceilings ?? [];
  if (ceilings.length === 0) return registry;
  return registry.filter((tool) => ceilings.every((c) => toolAllowedByProfile(c, tool.name)));
}

/** A call runs without asking only when every binding profile would auto-approve it. */
export function combinedApprovalRequirement(
  tool: Pick<Tool, 'name' | 'asksByDefault' | 'readOnlyHint'>,
  profiles: Array<Pick<RiskProfile, 'auto_approve' | 'always_ask' | 'trust_read_only_mcp'>>,
): ApprovalRequirement {
  return profiles.every((p) => approvalRequirement(tool, p) === 'auto') ? 'auto' : 'ask';
}

/** The path guard run against every binding profile's roots and forbidden paths: the first
 * refusal wins, so a path is reachable only where every ceiling allows it. */
export function confinePath(input: string, cwd: string, caller: Authority, forWrite = false): PathGuardResult {
  let result: PathGuardResult | undefined;
  for (const p of bindingProfiles(caller)) {
    result = resolveConfinedPath(input, { cwd, allowedRoots: p.allowed_roots, forbiddenPaths: p.forbidden_paths, forWrite });
    if (!result.ok) return result;
  }
  return result as PathGuardResult;
}

/** Every binding profile's forbidden paths (for walks that must skip them). */
export function forbiddenPathsOf(caller: Authority): string[] {
  return bindingProfiles(caller).flatMap((p) => p.forbidden_paths);
}
