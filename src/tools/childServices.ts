// What spawn_subagent and delegate need from the supervisor. Declared here, implemented in
// runtime/, so tools/ stays below runtime/ in the import graph.
import type { ChildObserved } from '../model/ledger.js';
import type { ToolCallOrigin } from './caller.js';

export type ChildEndStatus = 'completed' | 'failed' | 'killed' | 'timed_out' | 'cancelled';

export interface ChildOutcome {
  status: ChildEndStatus;
  /** The child's final answer (may be empty). */
  text: string;
  /** Why it did not complete. */
  error?: string;
  /** What the runtime saw the child (and its subtree) do: the receipt's source. */
  observed?: ChildObserved;
  /** An isolated child's worktree outcome (tools/worktreeNotes.ts), the last line of its result. */
  worktreeNote?: string;
  /** Refused before any run was created (the child never existed): `error` is the whole
   * tool result, word for word. */
  refused?: boolean;
}

export interface SubagentServices {
  /** Shared spawn limits (spawn pause, children per run, tree limits). A refusal string the
   * model reads, or undefined when the spawn may go ahead. */
  spawnRefusal(ctx: ToolCallOrigin): string | undefined;
  /** Builds the child under the caller's identity and runs it to the end. Throws with a
   * message when the child cannot be built (unknown alias, escalating override). */
  runSubagent(ctx: ToolCallOrigin, prompt: string, opts?: { isolation?: 'worktree' }): Promise<ChildOutcome>;
}

/** The subagent services of a call's context (ToolContext.services, which are a superset). */
export function subagentServices(ctx: { services: SubagentServices | undefined }): SubagentServices | undefined {
  return ctx.services;
}
