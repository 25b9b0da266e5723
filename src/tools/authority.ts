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
import { homedir } from 'node:os';
import { resolveConfigPath, resolveConfinedPath, type Barrier, type Fence, type PathGuardResult } from './pathGuard.js';
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
    result = resolveConfinedPath(input, {
      cwd,
      allowedRoots: p.allowed_roots,
      forbiddenPaths: p.forbidden_paths,
      fences: fencesOf(p),
      forWrite,
    });
    if (!result.ok) return result;
  }
  return result as PathGuardResult;
}

/** Every binding profile's forbidden paths (for walks that must skip them). */
export function forbiddenPathsOf(caller: Authority): string[] {
  return bindingProfiles(caller).flatMap((p) => p.forbidden_paths);
}

function fencesOf(p: RiskProfile): Fence[] {
  return p.worktree_fence ? [p.worktree_fence] : [];
}

/** What a walk under this caller skips: every binding profile's forbidden paths (resolved
 * against cwd) and fences, each once. */
export function barriersOf(caller: Authority, cwd: string, home = homedir()): Barrier[] {
  const out = new Map<string, Barrier>();
  for (const p of bindingProfiles(caller)) {
    for (const f of p.forbidden_paths) {
      const path = resolveConfigPath(f, cwd, home);
      out.set(JSON.stringify([path, []]), { path, except: [] });
    }
    for (const f of fencesOf(p)) out.set(JSON.stringify([f.folder, f.except]), { path: f.folder, except: f.except });
  }
  return [...out.values()];
}
