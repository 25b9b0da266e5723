// A saved session as lists and pickers show it (/sessions, /resume, --resume): read from
// its file by persistence/sessionRestore.ts, shown by the UI. One shape for both.
export interface SessionSummary {
  id: string;
  path: string;
  createdAt: string;
  /** ISO 8601: the file's last write. */
  updatedAt: string;
  agentAlias: string;
  /** The working directory the session was started in ('' when unknown). */
  cwd: string;
  headless: boolean;
  firstUserMessage?: string;
  items: number;
  /** Messages the user sent. */
  turns: number;
  tokens: number;
  costUsd: number;
}
