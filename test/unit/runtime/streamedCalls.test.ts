// Calls started as the reply streams them (runtime/streamedCalls.ts): once the reply has
// failed or the run was stopped, a call still waiting for its group's turn never starts.
import { describe, expect, it } from 'vitest';
import type { ToolCallRequest } from '../../../src/model/messages.js';
import { StreamedCalls } from '../../../src/runtime/streamedCalls.js';
import type { ToolResult } from '../../../src/tools/types.js';

const call = (i: number): ToolCallRequest => ({ id: `c${i}`, name: 'spawn_subagent', args: { task: `t${i}` }, rawArgs: '' });

/** Records each call it starts (where the loop shows its card) and ends it on the abort. */
function recording() {
  const started: string[] = [];
  const run = (c: ToolCallRequest, signal: AbortSignal): Promise<ToolResult> => {
    started.push(c.id);
    return new Promise((resolve) => {
      const end = () => resolve({ success: false, output: '', error: 'aborted' });
      if (signal.aborted) end();
      else signal.addEventListener('abort', end, { once: true });
    });
  };
  return { started, run };
}

describe('StreamedCalls', () => {
  it('a reply that fails with calls still waiting for their group: those never start (no card), each gets an aborted result', async () => {
    const { started, run } = recording();
    const calls = new StreamedCalls(new AbortController().signal, run);
    for (let i = 0; i < 5; i++) calls.add(call(i));
    // The ramp's first group is one call: the other four wait for later turns of the loop.
    expect(started).toEqual(['c0']);
    await calls.cancel();
    expect(started).toEqual(['c0']);
    const results = await calls.collect();
    expect(results).toHaveLength(5);
    expect(results.every((r) => !r.success && r.error === 'aborted')).toBe(true);
  });

  it('a run stopped while calls wait: the waiting ones never start either', async () => {
    const { started, run } = recording();
    const stop = new AbortController();
    const calls = new StreamedCalls(stop.signal, run);
    for (let i = 0; i < 3; i++) calls.add(call(i));
    stop.abort();
    const results = await calls.collect();
    expect(started).toEqual(['c0']);
    expect(results.map((r) => r.error)).toEqual(['aborted', 'aborted', 'aborted']);
  });
});
