// runTrace: the one builder of a run's trace-log line (identity + the event's own fields).
import { describe, expect, it } from 'vitest';
import { runTrace } from '../../../src/runtime/traceEvents.js';
import type { Run } from '../../../src/model/run.js';
import { makeRun } from '../../helpers/runs.js';

const run = (patch: Partial<Run>): Run => makeRun('r1', { status: 'running', task: 't', createdAt: 0, ...patch });

describe('runTrace', () => {
  it("a root's line names the run without a parent or a number", () => {
    expect(runTrace('run_started', run({}), { model: 'offline/echo' })).toEqual({
      event: 'run_started',
      agent_alias: 'main',
      session_key: 'session-s1',
      run_id: 'r1',
      parent_run_id: undefined,
      model: 'offline/echo',
    });
  });

  it("a child's line carries its parent and its number, then the event's fields", () => {
    const child = run({ id: 'c1', kind: 'subagent', parentRunId: 'r1', alias: 'researcher', number: 3 });
    expect(runTrace('tool_finished', child, { tool: 'shell', status: 'ok', ms: 12 })).toEqual({
      event: 'tool_finished',
      agent_alias: 'researcher',
      session_key: 'session-s1',
      run_id: 'c1',
      parent_run_id: 'r1',
      run_number: 3,
      tool: 'shell',
      status: 'ok',
      ms: 12,
    });
  });
});
