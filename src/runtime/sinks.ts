// Where a runtime's session events and trace lines go (RuntimeSinks, given by the CLI's
// session recorder), and the loop hooks that feed them: the root's items and messages
// to the session, a child's items to its own transcript, tool starts and ends to the trace.
import type { ModelMessage } from '../model/messages.js';
import type { Run } from '../model/run.js';
import type { TranscriptItem } from '../model/transcript.js';
import type { TraceEvent } from '../persistence/traceLog.js';
import type { LoopHooks } from './loopSpec.js';
import type { ModelSelection } from './rootModel.js';
import { setRetryNotice, type RuntimeStore } from './store.js';
import { runTrace } from './traceEvents.js';

/** Where session events and trace lines go. Both optional so tests can run bare. */
export interface RuntimeSinks {
  appendItem?(item: TranscriptItem): void;
  appendMessage?(message: ModelMessage): void;
  appendChildItem?(runId: string, item: TranscriptItem): void;
  appendRun?(run: Run): void;
  flush?(): void;
  /** /clear: later events go to a new session (the old one stays as it was, resumable);
   * returns the new session's id. */
  startNewSession?(): string;
  /** The trace log: its event type admits no arguments, results or prompts. */
  trace?(e: TraceEvent): void;
  /** The user switched the root's model (/model, --model): kept for --resume. */
  recordModel?(selection: ModelSelection): void;
}

/** `sinks` whose every call does nothing once `ended()` says so. */
export function endableSinks(sinks: RuntimeSinks, ended: () => boolean): RuntimeSinks {
  const out: Record<string, unknown> = {};
  for (const [key, fn] of Object.entries(sinks)) {
    out[key] =
      typeof fn === 'function' ? (...args: unknown[]) => (ended() ? undefined : (fn as (...a: unknown[]) => unknown)(...args)) : fn;
  }
  return out as RuntimeSinks;
}

/** The loop hooks every run of the session shares (the supervisor adds its budget's). */
export function sessionHooks(store: RuntimeStore, sinks: RuntimeSinks): LoopHooks {
  const runById = (runId: string) => store.getState().runs.get(runId);
  const isRoot = (runId: string) => runById(runId)?.kind === 'root';
  return {
    onItemFinal(runId, item) {
      if (isRoot(runId)) sinks.appendItem?.(item);
      else sinks.appendChildItem?.(runId, item);
    },
    onMessage(runId, message) {
      if (isRoot(runId)) sinks.appendMessage?.(message);
    },
    onToolStarted(runId, tool) {
      const r = runById(runId);
      if (r) sinks.trace?.(runTrace('tool_started', r, { tool }));
    },
    onToolFinished(runId, tool, success, ms) {
      const r = runById(runId);
      if (r) sinks.trace?.(runTrace('tool_finished', r, { tool, status: success ? 'ok' : 'error', ms }));
    },
    onRetry(_runId, text) {
      setRetryNotice(store, text);
    },
  };
}
