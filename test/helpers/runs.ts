// One builder for the Run records tests put in a store by hand: every counter at zero and a
// root run's defaults, so a test states only the fields it is about.
import { freshRunCounters, type Run } from '../../src/model/run.js';

export function makeRun(id: string, patch: Partial<Run> = {}): Run {
  return {
    id,
    shortId: id.slice(0, 8),
    rootRunId: id,
    depth: 0,
    alias: 'main',
    kind: 'root',
    status: 'queued',
    task: '',
    sessionKey: 'session-s1',
    model: 'offline/echo',
    createdAt: Date.now(),
    ...freshRunCounters(),
    ...patch,
  };
}
