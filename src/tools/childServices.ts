// What spawn_subagent and delegate need from the supervisor. Declared here, implemented in
// runtime/, so tools/ stays below runtime/ in the import graph.
import type { ToolContext } from './types.js';

export type ChildEndStatus = 'completed' | 'failed' | 'killed' | 'timed_out' | 'cancelled';

export interface ChildOutcome {
  status: ChildEndStatus;
  /** The child's final answer (may be empty). */
  text: string;
  /** Why it did not complete. */
  error?: string;
}

export interface SubagentServices {
  /** Shared spawn limits (spawn pause, children per run, tree limits). A refusal string the
   * model reads, or undefined when the spawn may go ahead. */
  spawnRefusal(ctx: ToolContext): string | undefined;
  /** Builds the child under the caller's identity and runs it to the end. Throws with a
   * message when the child cannot be built (unknown alias, escalating override). */
  runSubagent(ctx: ToolContext, prompt: string): Promise<ChildOutcome>;
}

export function subagentServices(ctx: ToolContext): SubagentServices | undefined {
  const s = ctx.services as Partial<SubagentServices> | undefined;
  return s && typeof s.runSubagent === 'function' ? (s as SubagentServices) : undefined;
}
