// What a tool result means, as data: the structured display beside the text the model reads.
// Cards, the viewer, headless JSON, the offline model and the effects ledger read these
// fields instead of parsing the model-facing text. Every string that came from outside
// (file paths, commands, answers, server names) is neutralised where items are (text/
// untrustedItems.ts). The session file stores it on the tool item; items recorded before it
// existed have none and are upgraded on restore where they can be (persistence/legacyDisplay.ts).

/** One hunk of a unified diff, as jsdiff's structuredPatch gives it: every line keeps its
 * one-character prefix (' ' context, '+' added, '-' removed, '\' "No newline at end of file"). */
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** A file changed by a tool: write_file (and edit_file). */
export interface DiffDisplay {
  kind: 'diff';
  path: string;
  hunks: DiffHunk[];
  /** Lines added and removed over the whole change (even when hunks were cut). */
  added: number;
  removed: number;
  /** The file did not exist before this call. */
  created?: boolean;
  /** Hunks were cut to keep the record small; added/removed still count everything. */
  truncated?: boolean;
}

export interface ReadDisplay {
  kind: 'read';
  path: string;
  /** Bytes of file content returned. */
  bytes: number;
  /** Lines returned, when the tool knows them (1-based, inclusive). */
  startLine?: number;
  endLine?: number;
  totalLines?: number;
  /** The file continues past what was returned. */
  truncated?: boolean;
  empty?: boolean;
}

export interface ListDisplay {
  kind: 'list';
  path: string;
  pattern?: string;
  entries: number;
  truncated?: boolean;
}

/** grep: what was searched for and how much was found. */
export interface GrepDisplay {
  kind: 'grep';
  pattern: string;
  path: string;
  mode: 'content' | 'files_with_matches' | 'count';
  /** Matching lines over every file, shown or not. */
  matches: number;
  /** Files with at least one match. */
  files: number;
  /** Files looked at (after .gitignore and the glob filter). */
  searched: number;
  /** Results were left out at max_results. */
  truncated?: boolean;
}

/** glob: how many files matched. */
export interface GlobDisplay {
  kind: 'glob';
  pattern: string;
  path: string;
  files: number;
  truncated?: boolean;
}

export interface ShellDisplay {
  kind: 'shell';
  command: string;
  /** Absent when the command did not exit on its own (signal, timeout, abort). */
  exitCode?: number;
  signal?: string;
  timedOut?: boolean;
  aborted?: boolean;
}

/** spawn_subagent: the child's final answer, or why there is none. */
export interface SpawnDisplay {
  kind: 'spawn';
  answer?: string;
  error?: string;
  /** An isolated child's worktree outcome, as its result's last line says it (issue #23). */
  worktree?: string;
}

/** One target of a delegate call. */
export interface DelegateTargetDisplay {
  target: string;
  success: boolean;
  /** The answering model as the envelope names it: "<provider_type>/<model>", or the
   * requested and served pair after a provider fallback. */
  label?: string;
  agentic?: boolean;
  answer?: string;
  error?: string;
  /** An isolated child's worktree outcome, as its block's last line says it (issue #23). */
  worktree?: string;
  /** Background launches and task actions: the task id the child runs under. */
  taskId?: string;
  /** Task actions (check_result): the task's recorded status. */
  status?: string;
  /** The answer was not kept (the record's size cap): shown as not recorded. */
  notRecorded?: boolean;
}

export interface DelegateDisplay {
  kind: 'delegate';
  /** 'delegate' runs children; the others manage background tasks. */
  action: 'delegate' | 'check_result' | 'list_results' | 'cancel_task' | 'await_sessions';
  parallel?: boolean;
  background?: boolean;
  /** Per target, in call order (empty for a refusal before anything ran). */
  targets: DelegateTargetDisplay[];
  /** Task ids a task-management action was about. */
  taskIds?: string[];
  /** Some answers were dropped to keep the record small. */
  capped?: boolean;
}

export interface McpDisplay {
  kind: 'mcp';
  server: string;
  tool: string;
  isError: boolean;
}

export type ToolDisplay =
  DiffDisplay | ReadDisplay | ListDisplay | GrepDisplay | GlobDisplay | ShellDisplay | SpawnDisplay | DelegateDisplay | McpDisplay;

export type ToolDisplayKind = ToolDisplay['kind'];

export const TOOL_DISPLAY_KINDS: readonly ToolDisplayKind[] = ['diff', 'read', 'list', 'grep', 'glob', 'shell', 'spawn', 'delegate', 'mcp'];
