// Where a card's child transcript comes from. A call of this process: the runs bound to it
// through parentToolCallId, read live from the store. A restored call: the child runs the
// session file recorded for that same tool call, shown as recorded (never as live).
import { t } from '../../i18n/index.js';
import type { RecordedRuns, RuntimeApi } from '../../runtime/runtimeApi.js';
import type { RuntimeState } from '../../model/state.js';
import { runName, type Run } from '../../model/run.js';
import type { ToolTranscriptItem, TranscriptItem } from '../../model/transcript.js';
import { boundRuns } from '../cards/live.js';
import { itemEntries, type ViewEntry } from './entries.js';

export type ChildSource = { kind: 'live'; runIds: string[] } | { kind: 'recorded'; runs: Run[]; items: Record<string, TranscriptItem[]> };

export type RecordedSession = RecordedRuns;

/** Asks the runtime for the session file's runs once; throws an Error naming the session
 * and the problem. */
export function loadRecorded(runtime: Pick<RuntimeApi, 'store' | 'recordedRuns'>): RecordedSession {
  try {
    return runtime.recordedRuns();
  } catch (err) {
    throw new Error(t('transcript:viewer.recordedUnreadable', { id: runtime.store.getState().sessionId, error: (err as Error).message }), {
      cause: err,
    });
  }
}

export function recordedChildren(rec: RecordedSession, item: ToolTranscriptItem): Run[] {
  return rec.runs.filter((r) => r.parentToolCallId === item.callId && r.parentRunId === item.runId);
}

/** The source for a card, or undefined when it started no child this viewer can show. */
export function childSourceFor(
  item: ToolTranscriptItem,
  state: Pick<RuntimeState, 'runs' | 'runOrder'>,
  recorded: () => RecordedSession,
): ChildSource | undefined {
  if (!item.restored) {
    const runs = boundRuns(state, item);
    return runs.length > 0 ? { kind: 'live', runIds: runs.map((r) => r.id) } : undefined;
  }
  const rec = recorded();
  const runs = recordedChildren(rec, item);
  if (runs.length === 0) return undefined;
  const items: Record<string, TranscriptItem[]> = {};
  for (const r of runs) items[r.id] = rec.childItems[r.id] ?? [];
  return { kind: 'recorded', runs, items };
}

export function childEntries(source: ChildSource, state: Pick<RuntimeState, 'runs' | 'runTranscripts'>): ViewEntry[] {
  const out: ViewEntry[] = [];
  if (source.kind === 'live') {
    for (const id of source.runIds) {
      const run = state.runs.get(id);
      if (!run) continue;
      out.push({ kind: 'child', key: `child:${id}`, run, recorded: false });
      out.push(...itemEntries(state.runTranscripts.get(id) ?? []));
    }
    return out;
  }
  for (const run of source.runs) {
    out.push({ kind: 'child', key: `child:${run.id}`, run, recorded: true });
    out.push(...itemEntries(source.items[run.id] ?? []));
  }
  return out;
}

/** The aliases a child view is about, for its title. */
export function childNames(source: ChildSource, state: Pick<RuntimeState, 'runs'>): string[] {
  return source.kind === 'live'
    ? source.runIds.map((id) => {
        const r = state.runs.get(id);
        return r ? runName(r) : id.slice(0, 8);
      })
    : source.runs.map((r) => runName(r));
}
