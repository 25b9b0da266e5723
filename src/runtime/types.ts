// Shapes of the runtime store: the one source of truth for every run's lifecycle.
// The run, transcript and control shapes live in src/model/ (every layer reads them); they
// are re-exported here for the runtime's own convenience. RuntimeState holds live objects
// (RunTranscripts) and stays in the runtime.
import type { Controls, SessionTotals } from '../model/controls.js';
import type { QuotaPause } from '../model/quota.js';
import type { Run } from '../model/run.js';
import type { TranscriptItem } from '../model/transcript.js';
import type { McpServerView } from '../model/mcp.js';
import type { BucketedMap } from '../model/bucketedMap.js';
import type { RunTranscripts } from './runTranscripts.js';

/** Every run of the session by id. */
export type RunTable = BucketedMap<Run>;

export * from '../model/run.js';
export * from '../model/transcript.js';
export * from '../model/controls.js';
export * from '../model/quota.js';

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
