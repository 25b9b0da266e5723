// The actions the UI and the headless runner may take. The UI never mutates a run
// directly; it calls these and reads the store through selectors.
import { scrubKnownSecrets } from '../persistence/redact.js';
import type { RuntimeStore } from './store.js';
import type { ApprovalAnswer, ElicitationReply } from '../model/controls.js';
import type { Run } from '../model/run.js';
import type { WorktreeApi } from '../model/worktree.js';
import type { TranscriptItem } from '../model/transcript.js';
import type { ProjectTrustState } from '../model/state.js';
import type { ProjectContext } from '../config/projectContext.js';
import type { SessionChange, SessionFileDiff } from '../model/sessionChanges.js';

/** What /context shows: the files found, and whether the root agent reads them. */
export interface ProjectContextReport extends Omit<ProjectContext, 'text'> {
  /** The agent the user talks to has `context = false`. */
  agentOptedOut: boolean;
  /** Whether the folder's .arbor settings were trusted (absent: it has none). */
  projectTrust?: ProjectTrustState;
}

/** What the session file recorded: its child runs and each one's transcript. */
export interface RecordedRuns {
  runs: Run[];
  childItems: Record<string, TranscriptItem[]>;
}

/** A model the user's agent can be switched to (/model); built in one place,
 * `modelChoices()` in rootModel.ts. */
export interface ModelChoice {
  /** What `setModel` takes to pick it: "<provider>/<model>"; absent, the provider's name. */
  id?: string;
  /** Config name of the provider, e.g. "local". */
  provider: string;
  /** Another model name on the provider (absent: the provider's own). */
  model?: string;
  /** "<provider_type>/<model>". */
  label: string;
  current: boolean;
  /** Agents whose definition names this model (agent files, `[agents.<alias>] model`). */
  agents?: string[];
}

export interface RuntimeApi {
  /** Every run, the transcript, the controls and `info` (who the user talks to). */
  readonly store: RuntimeStore;
  /** Isolated children's worktrees and the merge queue (issue #23); undefined for a runtime
   * that runs no isolated children. */
  readonly worktrees: WorktreeApi | undefined;
  /** Runs one root turn for the user's message; resolves when the turn ends. */
  startTurn(text: string): Promise<void>;
  /** Esc / Ctrl+C / /stop: stops the current turn and every foreground child. The partial
   * reply is kept and marked interrupted. Background tasks survive. */
  interrupt(): void;
  answerApproval(approvalId: string, answer: ApprovalAnswer): void;
  /** The operator's answer to a fan-out confirmation: how many of its children may start
   * (0 denies all; the whole count approves all). */
  answerFanout(fanoutId: string, count: number): void;
  /** The operator's answer to an MCP server's form (controls.elicitations). */
  answerElicitation(id: string, answer: ElicitationReply): void;
  /** Opens a URL-mode request's page in the browser (only on the operator's choice). */
  openElicitationUrl(id: string): void;
  /** Forget the session transcript on screen and in the model's context; what follows is
   * recorded as a new session (the cleared one stays resumable as it was). */
  clear(): void;
  /** Pauses a run and its live descendants; returns how many runs it paused (0 when the
   * run had ended or was already being stopped). */
  pause(runId: string): number;
  resume(runId: string): void;
  /** Kills a run and its descendants; returns how many descendants were killed. */
  kill(runId: string): { killed: boolean; descendants: number };
  /** Running child: delivered at its next step boundary. Finished child: a new turn in its
   * own history, whose answer is posted to the chat. */
  steer(runId: string, message: string): 'delivered' | 'continued' | 'unknown';
  setSpawnPaused(paused: boolean): void;
  /** The user's answer to a runaway-guard trip. */
  resolveRunaway(choice: 'resume' | 'kill'): boolean;
  /** The runs this session's file recorded (cards restored by --resume open them). Reads
   * the file on each call; throws naming the file and the problem. */
  recordedRuns(): RecordedRuns;
  /** Writes the session's run tree as a report (Markdown, or JSON for a `.json` path;
   * default $ARBOR_HOME/exports/<session>-tree.md, 0600). Throws naming the path. */
  exportTree(path?: string): { path: string; runs: number };
  /** A copy from the viewer: writes the text (secrets redacted) to a new private file named
   * after `what` in $ARBOR_HOME/exports (the system temp folder when ARBOR_HOME is not set);
   * returns its path. Throws naming the folder or file that could not be written. */
  exportText(text: string, what: string): string;
  /** /diff: every file arbor's tools changed in this session (this process's runs over what
   * the session file recorded), most recently changed first. */
  sessionChanges(): SessionChange[];
  /** /diff <path>: the file's diff from its content before the session's first change to
   * its content now. */
  sessionFileDiff(change: SessionChange): Promise<SessionFileDiff>;
  /** Every configured provider, the one the user's agent uses now marked current. */
  models(): ModelChoice[];
  /** Switches the user's agent to `<provider>` or `<provider>/<model>` (a configured
   * provider, optionally another model name on it) for the rest of this session: later
   * turns; a running one keeps its model; children keep their own definitions. Recorded in
   * the session, so --resume restores it. Throws naming the configured providers. */
  setModel(spec: string): void;
  /** The AGENTS.md files loaded into the system prompt at launch (/context); undefined when
   * this runtime was started without looking for them. */
  projectContext(): ProjectContextReport | undefined;
  /** Restarts a configured MCP server (`/mcp restart <name>`); its state shows in the
   * store's mcpServers. Rejects naming the configured servers for an unknown name. */
  mcpRestart(name: string): Promise<void>;
  /** `/mcp login <name>`: the sign-in (URL shown through `onUrl`; `signal` cancels, as Esc
   * does). Resolves 'signed-in' or 'not-needed'; rejects with why it failed. */
  mcpLogin(name: string, onUrl: (url: string, opened: boolean) => void, signal: AbortSignal): Promise<'signed-in' | 'not-needed'>;
  /** `/mcp logout <name>`: ends the session, forgets the grant. */
  mcpLogout(name: string): Promise<void>;
  /** Releases timers, child runs and files. */
  dispose(): Promise<void>;
}

/** Text leaving arbor through a copy or an export gets the session files' redaction: known
 * secret values are replaced. */
export function redactForExport(text: string): string {
  return scrubKnownSecrets(text);
}
