// The one shape of a trace-log line about a run: who it is (agent, session key, run id, its
// parent, its number as the screen names it) plus the event's own fields. The root turn, the
// supervisor's children, tool calls and worktree outcomes all build their lines here.
import type { TraceEvent, TraceEventName } from '../persistence/traceLog.js';
import type { Run } from '../model/run.js';

/** The fields an event adds to a run's identity. */
export type TraceFields = Pick<TraceEvent, 'tool' | 'status' | 'ms' | 'tools' | 'model' | 'branch' | 'merge'>;

export function runTrace(event: TraceEventName, run: Run, fields: TraceFields = {}): TraceEvent {
  return {
    event,
    agent_alias: run.alias,
    session_key: run.sessionKey,
    run_id: run.id,
    parent_run_id: run.parentRunId,
    ...(run.number !== undefined ? { run_number: run.number } : {}),
    ...fields,
  };
}
