// What the parent model reads about an isolated child's worktree (issue #23): exactly one of
// these ends the child's tool result (spawn_subagent and delegate). Protocol strings: exact,
// not localized.
import { z } from 'zod';

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

export const WORKTREE_MERGED = (n: number) => `[worktree: changes merged (${files(n)})]`;
export const WORKTREE_WAITING = (n: number) => `[worktree: waiting for the operator to merge (${files(n)})]`;
export const WORKTREE_CONFLICT = (paths: string[], other: string, branch: string) =>
  `[worktree: not merged — conflict in ${paths.join(', ')} with ${other}'s changes; branch ${branch} keeps them]`;
export const WORKTREE_NO_CHANGES = '[worktree: no changes]';
/** merge = "manual": nothing is merged; the branch keeps the child's changes. */
export const WORKTREE_MANUAL = (branch: string) => `[worktree: not merged — merge = manual; branch ${branch} keeps them]`;
/** A killed, failed or timed-out child with changes: never merged, its branch keeps them. */
export const WORKTREE_UNFINISHED = (branch: string) =>
  `[worktree: not merged — the child did not finish; branch ${branch} keeps its changes]`;

/** The refusal for a child that needs a worktree outside a git work tree. */
export const WORKTREE_NEEDS_GIT = (cwd: string) => `worktree isolation needs a git repository: ${cwd} is not inside one`;

export const ISOLATION_ONLY_WORKTREE =
  'isolation may only be "worktree": a call can ask for a worktree, never for less isolation than configured';

/** The optional `isolation` argument of spawn_subagent and delegate: it may only tighten. */
export const isolationArg = z
  .literal('worktree', { error: ISOLATION_ONLY_WORKTREE })
  .optional()
  .describe(
    'Set to "worktree" to run the child in its own git worktree (a snapshot of your current files); its changes come back through the merge queue. Leave out for the configured isolation.',
  );

/** The tool result's text with the worktree note, when there is one, on its own last line. */
export function withWorktreeNote(text: string, note: string | undefined): string {
  return note ? `${text}\n${note}` : text;
}
