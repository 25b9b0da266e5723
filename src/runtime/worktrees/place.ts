// Where an isolated run works: its worktree folder, the folder inside it that matches its
// caller's cwd, and the trees it must not reach (the original checkout and every ancestor
// worktree). The caller's allowed roots that point into one of those trees are mapped into
// the worktree; the trees themselves become forbidden paths, so a path into the original
// checkout is outside an isolated child's reach whatever its roots say. Every profile also
// gets the worktrees folder as a fence with the run's own worktree as its only hole, so no
// other worktree (a sibling's, an ancestor's, another session's) is reachable either, even
// with roots that hold $ARBOR_HOME. A forbidden path cannot express that: it cannot leave
// the run's own worktree reachable inside the folder it forbids.
import { isAbsolute, join, relative } from 'node:path';
import type { RiskProfile } from '../../config/types.js';
import { isInside, resolveConfigPath } from '../../tools/pathGuard.js';
import type { ToolCaller } from '../../tools/types.js';

export interface Place {
  /** The run's workspace (shell cwd, relative paths). */
  cwd: string;
  /** The worktree's top folder. */
  top: string;
  /** Trees that map into this one, outermost first (the original checkout first). */
  sources: string[];
  /** The folder holding every worktree ($ARBOR_HOME/worktrees): fenced off but for `top`. */
  fence: string;
}

function mapPath(p: string, baseCwd: string, place: Place): string {
  // Relative entries resolve against the run's own cwd (the guard does that): already inside.
  if (!isAbsolute(p) && !p.startsWith('~')) return p;
  const abs = resolveConfigPath(p, baseCwd);
  for (const source of [...place.sources].reverse()) {
    if (isInside(abs, source)) return join(place.top, relative(source, abs));
  }
  return p;
}

function mapProfile(risk: RiskProfile, baseCwd: string, place: Place): RiskProfile {
  return {
    ...risk,
    allowed_roots: risk.allowed_roots.map((r) => mapPath(r, baseCwd, place)),
    // A tree forbidden one hop up stays forbidden as itself (mapped, it would forbid the
    // worktree it maps into).
    forbidden_paths: [
      ...new Set([
        ...risk.forbidden_paths.filter((f) => !place.sources.includes(f)).map((f) => mapPath(f, baseCwd, place)),
        ...place.sources,
      ]),
    ],
    // Replaced, not added to: a caller's own worktree (mapped one hop up) is no hole here.
    worktree_fence: { folder: place.fence, except: [place.top] },
  };
}

/** The caller with its own profile and every ceiling mapped into the worktree. */
export function callerIn(caller: ToolCaller, baseCwd: string, place: Place): ToolCaller {
  return {
    ...caller,
    risk: mapProfile(caller.risk, baseCwd, place),
    ...(caller.ceilings ? { ceilings: caller.ceilings.map((c) => mapProfile(c, baseCwd, place)) } : {}),
  };
}
