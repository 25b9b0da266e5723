// The observed-effects ledger of one run: what the runtime saw it do (tool calls, files
// changed, commands, MCP calls, approvals), recorded from tool results and work-tree
// snapshots, never from the model's text. Plain data so every layer can read it; the
// runtime writes it (runtime/ledger/), the session file stores it on the run.
import { ChildIndex } from './childIndex.js';

/** Runs by id: the store's run table, or any other lookup. */
export interface Lookup<T> {
  get(id: string): T | undefined;
}

export type FileChange = 'created' | 'modified' | 'deleted';

export interface FileEffect {
  /** Relative to the run's working directory when inside it, else absolute. */
  path: string;
  change: FileChange;
  added: number;
  removed: number;
  /** Unified hunks (`@@ … @@` headers and prefixed lines), cut to the size budget. */
  diff?: string;
  /** The diff was cut or dropped to stay in budget; added/removed still count everything. */
  diffCut?: boolean;
  /** The tool call that did it. */
  tool: string;
  callId: string;
  /** From a file tool's result, or seen in the work tree around a shell command. */
  via: 'tool' | 'shell';
  /** Another command or file write ran in the same work tree meanwhile: the change may be
   * that one's. */
  concurrent?: boolean;
  /** When it was recorded (ms since the epoch); absent in sessions recorded before. */
  at?: number;
}

/** A file's content before the session first changed it (/diff diffs against it), recorded
 * once per file and session, at that first change. */
export interface FileBase {
  /** As the file's FileEffect says it. */
  path: string;
  /** Absolute, to read its content now. */
  abs: string;
  /** false: the file did not exist before the change. */
  existed: boolean;
  /** The text before; absent when it was not kept (too large, binary, unreadable) or the
   * file did not exist. */
  content?: string;
  /** Why a content that existed was not kept. */
  notKept?: 'too_large' | 'binary' | 'unreadable' | 'budget';
  at: number;
}

export interface CommandEffect {
  command: string;
  exitCode?: number;
  signal?: string;
  timedOut?: boolean;
  /** Stopped by the run's abort (kill, stop). */
  killed?: boolean;
  durationMs: number;
  callId: string;
  /** How its file changes were observed: `git` (work-tree snapshots), `outside_git` (no git
   * work tree: not observed), `unobserved` (too many changes or git failed). */
  observed: 'git' | 'outside_git' | 'unobserved';
}

export interface McpEffect {
  server: string;
  tool: string;
  error: boolean;
  callId: string;
}

/** An approval the call needed, and how it was answered. */
export interface ApprovalEffect {
  tool: string;
  callId: string;
  answer: string;
}

export interface ToolCount {
  calls: number;
  failed: number;
}

export interface RunLedger {
  toolCalls: number;
  failedCalls: number;
  byTool: Record<string, ToolCount>;
  files: FileEffect[];
  commands: CommandEffect[];
  mcp: McpEffect[];
  approvals: ApprovalEffect[];
  /** false: the run was offered no tool (a single-call target). */
  toolsOffered?: boolean;
  /** Files this run was the first in the session to change, with their content before. */
  bases?: FileBase[];
  /** Entries left out past the per-run caps (their counts stay in toolCalls). */
  dropped?: { files?: number; commands?: number; mcp?: number; approvals?: number };
}

/** A spawn_subagent / delegate child as its call's card keeps it. */
export interface ChildObserved {
  runId: string;
  alias: string;
  /** The child with everything under it. */
  summary: ObservedSummary;
  flags: ObservedFlag[];
  /** The subtree's file changes and commands, for the expanded card. */
  files: FileEffect[];
  commands: CommandEffect[];
}

export function emptyLedger(): RunLedger {
  return { toolCalls: 0, failedCalls: 0, byTool: {}, files: [], commands: [], mcp: [], approvals: [] };
}

/** A run as far as the ledger's roll-ups need it. */
export interface LedgerRun {
  id: string;
  parentRunId?: string;
  observed?: RunLedger;
}

/** What a run and everything under it did, summed. Files are one entry per path (the last
 * change wins its kind; lines are summed), so two overlapping commands that both saw one
 * change do not count it twice. */
export interface ObservedSummary {
  toolCalls: number;
  failedCalls: number;
  files: Array<{ path: string; change: FileChange; added: number; removed: number }>;
  added: number;
  removed: number;
  commands: CommandEffect[];
  failedCommands: number;
  mcpCalls: number;
  mcpFailed: number;
  /** Shell commands whose changes could not be observed. */
  unobservedCommands: number;
  /** Runs counted (the run itself and its descendants). */
  runs: number;
}

/** The run's own ledger and every descendant's (by parentRunId), summed. */
export function subtreeObserved(runs: Lookup<LedgerRun>, order: readonly string[], runId: string): ObservedSummary {
  return summarize(subtreeIds(runs, order, runId).map((id) => runs.get(id)?.observed));
}

/** Children by parent for the roll-ups, shared by every caller: the store's order only grows
 * by appending, so each new child is read once. Built per call, it made every child's end
 * (its card's observed section, the ledger's receipt) a walk over every run: a 1,000-child
 * fan-out paid millions of steps for it. */
const childIndex = new ChildIndex();

/** The run and its descendants that `runs` knows, the run first. */
function subtreeIds(runs: Lookup<LedgerRun>, order: readonly string[], runId: string): string[] {
  const ids: string[] = [];
  const stack = [runId];
  const seen = new Set<string>();
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id) || !runs.get(id)) continue;
    seen.add(id);
    ids.push(id);
    // Pushed in creation order (so popped newest first), as the walk has always listed them.
    for (const c of childIndex.of(order, runs, id)) stack.push(c);
  }
  return ids;
}

/** The children that one call of `parentRunId` started, in creation order. */
export function childrenOfCall(runs: Lookup<LedgerRun>, order: readonly string[], parentRunId: string, callId: string): readonly string[] {
  return childIndex.ofCall(order, runs, parentRunId, callId);
}

/** Several ledgers (a subtree, or one run) as one summary. */
export function summarize(ledgers: ReadonlyArray<RunLedger | undefined>): ObservedSummary {
  const out: ObservedSummary = {
    toolCalls: 0,
    failedCalls: 0,
    files: [],
    added: 0,
    removed: 0,
    commands: [],
    failedCommands: 0,
    mcpCalls: 0,
    mcpFailed: 0,
    unobservedCommands: 0,
    runs: 0,
  };
  const byPath = new Map<string, ObservedSummary['files'][number]>();
  const seen = new Set<string>();
  for (const l of ledgers) {
    out.runs++;
    if (!l) continue;
    out.toolCalls += l.toolCalls;
    out.failedCalls += l.failedCalls;
    for (const f of l.files) {
      // The same change seen by two overlapping commands has the same stats and diff.
      const key = `${f.path}\u0000${f.change}\u0000${f.added}\u0000${f.removed}\u0000${f.diff ?? ''}`;
      if (f.concurrent && seen.has(key)) continue;
      seen.add(key);
      const e = byPath.get(f.path);
      if (e) {
        e.added += f.added;
        e.removed += f.removed;
        e.change = e.change === 'created' && f.change !== 'deleted' ? 'created' : f.change;
      } else byPath.set(f.path, { path: f.path, change: f.change, added: f.added, removed: f.removed });
      out.added += f.added;
      out.removed += f.removed;
    }
    for (const c of l.commands) {
      out.commands.push(c);
      if (commandFailed(c)) out.failedCommands++;
      if (c.observed !== 'git') out.unobservedCommands++;
    }
    out.mcpCalls += l.mcp.length + (l.dropped?.mcp ?? 0);
    out.mcpFailed += l.mcp.filter((m) => m.error).length;
  }
  out.files = [...byPath.values()];
  return out;
}

export function commandFailed(c: CommandEffect): boolean {
  return c.exitCode !== 0;
}

/** How a command ended, as the receipt and the card say it: `exit 1`, `signal SIGKILL`,
 * `timed out`, `killed`. Protocol text (the receipt): not localized. */
export function commandEnding(c: CommandEffect): string {
  if (c.timedOut) return 'timed out';
  if (c.killed) return 'killed';
  if (c.exitCode !== undefined) return `exit ${c.exitCode}`;
  return `signal ${c.signal ?? 'unknown'}`;
}

// ---- flags ----

export type ObservedFlag =
  { kind: 'no_tools' } | { kind: 'claims_changes'; verb: string } | { kind: 'last_command_failed'; command: string; ending: string };

/** Past-tense change verbs (en and es): an answer using one claims it changed something. */
const CHANGE_VERBS = [
  'created',
  'wrote',
  'written',
  'updated',
  'modified',
  'fixed',
  'changed',
  'edited',
  'added',
  'removed',
  'deleted',
  'renamed',
  'refactored',
  // es: first-person preterite and participles (any gender and number)
  'creé',
  'escribí',
  'escrito',
  'actualicé',
  'modifiqué',
  'arreglé',
  'corregí',
  'corregido',
  'cambié',
  'edité',
  'añadí',
  'agregué',
  'eliminé',
  'borré',
  'quité',
  'renombré',
  'refactoricé',
];
const PARTICIPLE_STEMS_ES = [
  'cread',
  'actualizad',
  'modificad',
  'arreglad',
  'cambiad',
  'editad',
  'añadid',
  'agregad',
  'eliminad',
  'borrad',
  'quitad',
  'renombrad',
  'refactorizad',
  'escrit',
  'corregid',
];
const VERB_RE = new RegExp(
  `(?<![\\p{L}\\p{N}_])(${CHANGE_VERBS.join('|')}|(?:${PARTICIPLE_STEMS_ES.join('|')})[oa]s?)(?![\\p{L}\\p{N}_])`,
  'iu',
);

/** The first change verb an answer uses, or undefined. */
export function claimedChange(answer: string | undefined): string | undefined {
  if (!answer) return undefined;
  // Lines posing as the runtime's receipt are not the child's claim (they are quoted).
  const own = answer
    .split('\n')
    .filter((l) => !/^\s*\[runtime (receipt|warning)/i.test(l))
    .join('\n');
  return VERB_RE.exec(own)?.[1];
}

export interface FlagInput {
  /** The run's own ledger. */
  own: RunLedger | undefined;
  /** The run with everything under it. */
  subtree: ObservedSummary;
  answer: string | undefined;
  /** Only a finished run is flagged (a running child has not answered yet). */
  finished: boolean;
}

/** The flags a finished child earns, from the ledger alone (and its answer's wording). */
export function observedFlags(input: FlagInput): ObservedFlag[] {
  if (!input.finished) return [];
  const flags: ObservedFlag[] = [];
  if ((input.own?.toolCalls ?? 0) === 0 && input.own?.toolsOffered !== false) flags.push({ kind: 'no_tools' });
  const verb = claimedChange(input.answer);
  if (verb && input.subtree.files.length === 0) flags.push({ kind: 'claims_changes', verb });
  const commands = input.own?.commands ?? [];
  const last = commands[commands.length - 1];
  if (last && commandFailed(last)) flags.push({ kind: 'last_command_failed', command: last.command, ending: commandEnding(last) });
  return flags;
}

/** The flag's own words, as the receipt and the ⚠ mark say them. Protocol text. */
export function flagWords(flag: ObservedFlag): string {
  switch (flag.kind) {
    case 'no_tools':
      return 'no tools used';
    case 'claims_changes':
      return 'claims changes, none observed';
    case 'last_command_failed':
      return `last command failed (${flag.ending})`;
  }
}

const FINISHED = new Set(['completed', 'failed', 'killed', 'timed_out', 'cancelled']);

/** A child's observed section as its card keeps it: the subtree's summary, its flags and
 * its subtree's file effects (with diffs) so a restored card can expand them. */
export function childObserved(
  runs: Lookup<LedgerRun & { alias: string; status: string; result?: string }>,
  order: readonly string[],
  id: string,
): ChildObserved {
  const r = runs.get(id)!;
  const ids = subtreeIds(runs, order, id);
  const subtree = summarize(ids.map((i) => runs.get(i)?.observed));
  const files: FileEffect[] = [];
  const commands: CommandEffect[] = [];
  for (const cur of ids) {
    const run = runs.get(cur)!;
    files.push(...(run.observed?.files ?? []));
    commands.push(...(run.observed?.commands ?? []));
  }
  return {
    runId: id,
    alias: r.alias,
    summary: subtree,
    flags: observedFlags({ own: r.observed, subtree, answer: r.result, finished: FINISHED.has(r.status) }),
    files,
    commands,
  };
}
