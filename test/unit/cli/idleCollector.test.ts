import { afterEach, describe, expect, it, vi } from 'vitest';
import { engineCollector, startIdleCollector } from '../../../src/cli/idleCollector.js';
import { addRun, createRuntimeStore, patchRun } from '../../../src/runtime/store.js';
import type { Run } from '../../../src/runtime/types.js';
import { makeRun } from '../../helpers/runs.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The quiet time is the subject: the collector's clock is a fake one the test moves. */
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);
const MB = 1024 * 1024;

function run(id: string, status: Run['status']): Run {
  return makeRun(id, { kind: 'subagent', alias: id, status, parentRunId: 'root', rootRunId: 'root', createdAt: 0 });
}

describe('the idle collector', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    vi.useRealTimers();
  });

  it('collects once, after every run has ended and the store has been quiet, when the heap grew', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    const store = createRuntimeStore('s');
    let heap = 100 * MB;
    const collections: number[] = [];
    stop = startIdleCollector(store, {
      collect: () => {
        collections.push(heap);
        heap = 110 * MB;
      },
      heapUsed: () => heap,
      idleMs: 30,
      growthBytes: 32 * MB,
    });

    addRun(store, run('a', 'running'));
    heap = 300 * MB;
    await pass(80);
    expect(collections).toEqual([]); // a run is still live

    patchRun(store, 'a', { status: 'completed', endedAt: 1 } as Partial<Run>);
    await pass(10);
    expect(collections).toEqual([]); // not quiet long enough yet
    await pass(80);
    expect(collections).toEqual([300 * MB]);

    // Quiet again, but the heap has not grown since: nothing to do.
    store.setState({ retryNotice: undefined });
    await pass(80);
    expect(collections).toHaveLength(1);
  });

  it('leaves a small heap alone', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    const store = createRuntimeStore('s');
    let collected = 0;
    stop = startIdleCollector(store, {
      collect: () => {
        collected++;
      },
      heapUsed: () => 50 * MB,
      idleMs: 10,
    });
    store.setState({ retryNotice: undefined });
    await pass(50);
    expect(collected).toBe(0);
  });

  it('asks the engine for a full collection without --expose-gc, and the garbage goes', async () => {
    const gc = engineCollector();
    expect(typeof gc).toBe('function');
    let garbage: object[] | null = Array.from({ length: 400_000 }, (_, i) => ({ i, s: `item ${i}` }));
    const before = process.memoryUsage().heapUsed;
    expect(garbage.length).toBe(400_000);
    // Dropping the only reference is the point: the collection below must find it garbage.
    // eslint-disable-next-line no-useless-assignment
    garbage = null;
    await gc!();
    const start = Date.now();
    while (process.memoryUsage().heapUsed > before - 20 * MB && Date.now() - start < 3000) await sleep(20);
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - 20 * MB);
  });
});
