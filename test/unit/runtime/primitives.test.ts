import { describe, it, expect, vi } from 'vitest';
import { ExecutionBudget } from '../../../src/runtime/executionBudget.js';
import { ConcurrencyLane } from '../../../src/runtime/concurrencyLane.js';
import { PauseGate } from '../../../src/runtime/pauseGate.js';
import { PausableTimer } from '../../../src/runtime/pausableTimer.js';
import { repairHistory } from '../../../src/runtime/history.js';
import type { ModelMessage } from '../../../src/providers/types.js';

describe('ExecutionBudget', () => {
  it('rejects 0 and non-integers', () => {
    expect(() => new ExecutionBudget(0)).toThrow(/>= 1/);
    expect(() => new ExecutionBudget(2.5)).toThrow();
  });

  it('keeps the final slot for the root', () => {
    const b = new ExecutionBudget(3);
    expect(b.reserveChild()).toBe(true); // 3 → 2
    expect(b.reserveChild()).toBe(true); // 2 → 1
    expect(b.reserveChild()).toBe(false); // only the root's final slot is left
    expect(b.reserveRoot()).toBe('final');
    expect(b.reserveRoot()).toBe('exhausted');
    expect(b.remaining).toBe(0);
  });

  it('never overruns under 50 concurrent reservations', async () => {
    const b = new ExecutionBudget(12);
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i % 7));
        return b.reserveChild();
      }),
    );
    expect(results.filter(Boolean).length).toBe(11);
    expect(b.remaining).toBe(1);
    expect(b.reserveRoot()).toBe('final');
    expect(b.remaining).toBe(0);
    expect(b.reserveChild()).toBe(false);
    expect(b.remaining).toBe(0); // never wraps below zero
  });
});

describe('ConcurrencyLane', () => {
  it('queues beyond the limit and reports 1-based positions', async () => {
    const positions: Array<Map<string, number>> = [];
    const lane = new ConcurrencyLane(2, (p) => positions.push(new Map(p)));
    await lane.acquire('a');
    await lane.acquire('b');
    const order: string[] = [];
    const c = lane.acquire('c').then(() => order.push('c'));
    const d = lane.acquire('d').then(() => order.push('d'));
    expect(positions.at(-1)).toEqual(
      new Map([
        ['c', 1],
        ['d', 2],
      ]),
    );
    lane.release('a');
    await c;
    expect(positions.at(-1)).toEqual(new Map([['d', 1]]));
    lane.release('b');
    await d;
    expect(order).toEqual(['c', 'd']);
    expect(lane.running).toBe(2);
  });

  it('a waiter aborted while queued leaves the queue', async () => {
    const lane = new ConcurrencyLane(1, () => {});
    await lane.acquire('a');
    const ac = new AbortController();
    const p = lane.acquire('b', ac.signal);
    expect(lane.queued).toBe(1);
    ac.abort();
    await expect(p).rejects.toThrow(/aborted/);
    expect(lane.queued).toBe(0);
  });

  it('suspendWhile frees the slot for a child and takes it back first', async () => {
    const lane = new ConcurrencyLane(1, () => {});
    await lane.acquire('parent');
    const child = (async () => {
      await lane.acquire('child');
      lane.release('child');
      return 'done';
    })();
    await expect(lane.suspendWhile('parent', child)).resolves.toBe('done');
    expect(lane.holds('parent')).toBe(true);
  });
});

describe('PauseGate', () => {
  it('blocks while paused and releases on resume or abort', async () => {
    const gate = new PauseGate();
    await gate.wait(); // not paused: immediate
    gate.pause();
    let passed = false;
    const w = gate.wait().then(() => (passed = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(passed).toBe(false);
    gate.resume();
    await w;
    expect(passed).toBe(true);
    gate.pause();
    const ac = new AbortController();
    const w2 = gate.wait(ac.signal);
    ac.abort();
    await w2;
  });
});

describe('PausableTimer', () => {
  it('does not count paused time', () => {
    vi.useFakeTimers();
    try {
      const fired = vi.fn();
      const timer = new PausableTimer(1000, fired);
      timer.start();
      vi.advanceTimersByTime(600);
      timer.pause();
      vi.advanceTimersByTime(5000);
      expect(fired).not.toHaveBeenCalled();
      timer.resume();
      vi.advanceTimersByTime(399);
      expect(fired).not.toHaveBeenCalled();
      vi.advanceTimersByTime(2);
      expect(fired).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('repairHistory', () => {
  it('answers tool calls left without results by an interrupted turn', () => {
    const history: ModelMessage[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'shell', args: {}, rawArgs: '{}' },
          { id: 'b', name: 'shell', args: {}, rawArgs: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', toolName: 'shell', content: 'ok' },
    ];
    repairHistory(history);
    expect(history.map((m) => (m.role === 'tool' ? m.toolCallId : m.role))).toEqual(['user', 'assistant', 'a', 'b']);
  });
});
