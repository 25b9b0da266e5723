// The supervisor's side of isolation: which children get a worktree, where each run works,
// and the worktree note a finished child's result carries. Kept here so supervisor.ts only
// calls in at three points (a child is announced, it starts, it ends).
import type { ArborConfig } from '../../config/types.js';
import type { ToolCaller } from '../../tools/types.js';
import type { ChildResult, ChildSpec } from '../supervisorTypes.js';
import type { Run } from '../types.js';
import { RUN_ERROR_TEXT, type FixedRunErrorCode } from '../../model/run.js';
import { WORKTREE_NEEDS_GIT } from '../../tools/worktreeNotes.js';
import { workTreeTop } from './git.js';
import { callerIn } from './place.js';
import type { WorktreeQueue } from './queue.js';

/** A worktree when the call asks for one, or its agent's (else [delegation]'s) isolation
 * says so; a call can never ask for less. */
export function wantsWorktree(config: ArborConfig, spec: Pick<ChildSpec, 'alias' | 'isolation'>): boolean {
  if (spec.isolation === 'worktree') return true;
  const own = config.agents[spec.alias]?.isolation;
  return (own ?? config.delegation.isolation ?? 'none') === 'worktree';
}

export class RunPlaces {
  private readonly pending = new Set<string>();
  /** Isolated children's specs, for a re-run on the new tree. */
  private readonly specs = new Map<string, ChildSpec>();

  constructor(
    private readonly queue: WorktreeQueue | undefined,
    private readonly config: ArborConfig,
    private readonly baseCwd: string,
  ) {}

  /** At announce: marks a child that needs its own worktree, or lets it inherit its caller's. */
  announced(spec: ChildSpec, run: Run): void {
    if (!this.queue) return;
    if (wantsWorktree(this.config, spec)) {
      this.pending.add(run.id);
      this.specs.set(run.id, spec);
    } else this.queue.inherit(run.id, spec.parentRunId);
  }

  /** Before a child's run exists: why a child that needs its own worktree cannot have one
   * (no worktree support here, or its caller does not work inside a git work tree), so the
   * calling tool refuses it and no run is ever created. Undefined at once for a child that
   * needs no worktree: its tool must not yield between its spawn gates and the run. */
  refusal(spec: Pick<ChildSpec, 'alias' | 'isolation' | 'parentRunId'>): Promise<string | undefined> | undefined {
    if (!wantsWorktree(this.config, spec)) return undefined;
    if (!this.queue) return Promise.resolve(RUN_ERROR_TEXT.worktreeUnavailable);
    const cwd = this.cwdOf(spec.parentRunId);
    return workTreeTop(cwd).then((top) => (top ? undefined : WORKTREE_NEEDS_GIT(cwd)));
  }

  /** Before the child starts: its worktree, or the refusal it fails with (the tools refused
   * earlier; this catches a tree that went away in between and children no tool started): a
   * git error's text, or the code of one the runtime words itself. */
  async prepare(spec: ChildSpec, run: Run): Promise<string | { code: FixedRunErrorCode } | undefined> {
    if (!this.pending.delete(run.id)) {
      if (!this.queue && wantsWorktree(this.config, spec)) return { code: 'worktreeUnavailable' };
      return undefined;
    }
    try {
      await this.queue!.create(run, this.cwdOf(spec.parentRunId), spec.parentRunId);
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /** After the child ended: its changes go to the merge queue; the note joins its result. */
  async ended(result: ChildResult, notice?: (text: string) => void): Promise<ChildResult> {
    this.pending.delete(result.run.id);
    if (!this.queue || !this.queue.placeOf(result.run.id) || this.queue.placeOf(result.run.id)!.inherited) return result;
    try {
      const note = await this.queue.finish(result.run.id, result.status === 'completed');
      return note ? { ...result, worktreeNote: note } : result;
    } catch (err) {
      notice?.(`worktree of ${result.run.alias}: ${(err as Error).message}`);
      return result;
    }
  }

  /** The spec an isolated child ran with: a re-run starts a new child from it. */
  specOf(runId: string): ChildSpec | undefined {
    return this.specs.get(runId);
  }

  cwdOf(runId: string | undefined): string {
    return (runId && this.queue?.placeOf(runId)?.cwd) || this.baseCwd;
  }

  /** The caller a run's tools see: mapped into its worktree when it has one. */
  callerOf(runId: string, caller: ToolCaller): ToolCaller {
    const place = this.queue?.placeOf(runId);
    return place ? callerIn(caller, this.baseCwd, place) : caller;
  }
}
