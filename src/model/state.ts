// The runtime store's shape: what every view reads through selectors and the runtime
// writes through its mutators (runtime/store.ts). It lives with the other shared shapes so
// the UI reads it from model/, as it reads runs and transcript items.
import type { BucketedMap } from './bucketedMap.js';
import type { Controls, SessionTotals } from './controls.js';
import type { McpServerView } from './mcp.js';
import type { QuotaPause } from './quota.js';
import type { Run } from './run.js';
import type { TranscriptItem } from './transcript.js';

/** Every run of the session by id. */
export type RunTable = BucketedMap<Run>;

/** Each child run's own transcript, by run id (runtime/runTranscripts.ts keeps it). */
export type RunTranscripts = BucketedMap<TranscriptItem[]>;

export interface RuntimeState {
  sessionId: string;
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
