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

/** Each call's result is released by the test, in whatever order it likes. */
function deferred() {
  const started: string[] = [];
  const settle = new Map<string, (r: ToolResult) => void>();
  const run = (c: ToolCallRequest, signal: AbortSignal): Promise<ToolResult> => {
    started.push(c.id);
    return new Promise((resolve) => {
      settle.set(c.id, resolve);
      signal.addEventListener('abort', () => resolve({ success: false, output: '', error: 'aborted' }), { once: true });
    });
  };
  return { started, settle, run };
}

const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('StreamedCalls history messages', () => {
  it('results that settle in reverse order come back as one message per call, in call order, each with its own answer', async () => {
    const { started, settle, run } = deferred();
    const calls = new StreamedCalls(new AbortController().signal, run);
    const n = 40;
    for (let i = 0; i < n; i++) calls.add(call(i));
    while (started.length < n) await turnOfTheLoop();
    for (let i = n - 1; i >= 0; i--) {
      settle.get(`c${i}`)!(i % 7 === 3 ? { success: false, output: '', error: `failed ${i}` } : { success: true, output: `answer ${i}` });
      if (i % 5 === 0) await turnOfTheLoop();
    }
    const messages = await calls.collectMessages();
    expect(messages).toHaveLength(n);
    expect(messages.map((m) => (m.role === 'tool' ? m.toolCallId : m.role))).toEqual(Array.from({ length: n }, (_, i) => `c${i}`));
    for (const [i, m] of messages.entries()) {
      expect(m).toMatchObject(
        i % 7 === 3
          ? { role: 'tool', toolName: 'spawn_subagent', content: `failed ${i}`, isError: true }
          : { role: 'tool', toolName: 'spawn_subagent', content: `answer ${i}` },
      );
    }
  });

  it('stopped part-way: a call that already answered keeps its answer, the started ones read aborted, the rest never start', async () => {
    const { started, settle, run } = deferred();
    const stop = new AbortController();
    const calls = new StreamedCalls(stop.signal, run);
    for (let i = 0; i < 6; i++) calls.add(call(i));
    // The ramp: c0 at once, then c1 and c2 a turn later.
    while (started.length < 3) await turnOfTheLoop();
    settle.get('c1')!({ success: true, output: 'answer 1' });
    stop.abort();
    const messages = await calls.collectMessages();
    expect(started.length).toBeLessThan(6);
    expect(messages.map((m) => (m.role === 'tool' ? [m.toolCallId, m.content] : []))).toEqual([
      ['c0', 'aborted'],
      ['c1', 'answer 1'],
      ['c2', 'aborted'],
      ['c3', 'aborted'],
      ['c4', 'aborted'],
      ['c5', 'aborted'],
    ]);
  });
});
