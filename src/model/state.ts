// The runtime store's shape: what every view reads through selectors and the runtime
// writes through its mutators (runtime/store.ts). It lives with the other shared shapes so
// the UI reads it from model/, as it reads runs and transcript items.
import type { BucketedMap } from './bucketedMap.js';
import type { Controls, SessionTotals } from './controls.js';
import type { McpServerView } from './mcp.js';
import type { QuotaPause } from './quota.js';
import type { Run } from './run.js';
import type { TranscriptItem } from './transcript.js';

/** The folder's own .arbor settings: applied (trusted) or left out (untrusted). */
export type ProjectTrustState = 'trusted' | 'untrusted';

/** `[ui] show_reasoning`: how views show a model's reasoning (config/schema.ts lists the
 * values the config accepts; the runtime hands the config's value over as this type). */
export type ShowReasoning = 'collapsed' | 'hidden' | 'expanded';

/** Who the user talks to and how it was set up: the status bar, /model, /context and the
 * views that show reasoning read it from the store (`RuntimeState.info`); /model replaces it. */
export interface RuntimeInfo {
  /** Alias of the agent the user talks to. */
  agentAlias: string;
  /** Config name of its provider, e.g. "local". */
  providerName: string;
  /** "<provider_type>/<model>", e.g. "openai-compatible/qwen3:8b". */
  providerLabel: string;
  /** Env var the provider was picked from when no config exists (status bar says so). */
  autoDetectedFrom?: string;
  /** Warnings from loading config, shown once at start. */
  configWarnings: string[];
  /** The folder's .arbor settings were trusted or left out (absent: it has none). */
  projectTrust?: ProjectTrustState;
  /** `[ui] show_reasoning` (absent: "collapsed"). */
  showReasoning?: ShowReasoning;
}

/** Every run of the session by id. */
export type RunTable = BucketedMap<Run>;

/** Each child run's own transcript, by run id (runtime/runTranscripts.ts keeps it). */
export type RunTranscripts = BucketedMap<TranscriptItem[]>;

export interface RuntimeState {
  sessionId: string;
  /** The agent, provider and settings the chat shows; replaced whole when /model switches. */
  info: RuntimeInfo;
  /** Every run by id (`.get(id)`, `.values()` in creation order): an immutable table
   * whose update copies one bucket, not every run (model/bucketedMap.ts). */
  runs: RunTable;
  /** Run ids in creation order. */
  runOrder: string[];
  /** The number the next child run gets (Run.number); a resumed session goes on from the
   * numbers it saved. */
  nextRunNumber: number;
  /** The session's chat items (root turns only; children keep their own). */
  transcript: TranscriptItem[];
  /** Each child run's own transcript, by run id (`.get(runId)`). */
  runTranscripts: RunTranscripts;
  controls: Controls;
  totals: SessionTotals;
  /** The root run of the turn in flight, if any. */
  activeRootRunId?: string;
  /** Shown in the status bar while a provider retries. */
  retryNotice?: string;
  /** Why the last session save failed (file and reason), until a later save succeeds. */
  saveError?: string;
  /** Configured MCP servers (runtime/mcpRuntime.ts); absent when there are none. */
  mcpServers?: McpServerView[];
  /** Providers whose rate or quota limit holds runs (runtime/quotaPause.ts): the banner. */
  quotaPauses?: QuotaPause[];
}
