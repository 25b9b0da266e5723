// The structures that keep a large tree's per-event cost flat: the bucketed run table, the
// incremental child index and the grouped start of parallel tool calls.
import { describe, expect, it } from 'vitest';
import { BucketedMap } from '../../../src/model/bucketedMap.js';
import { ChildIndex } from '../../../src/runtime/childIndex.js';
import { startInGroups } from '../../../src/runtime/batchedStart.js';

describe('BucketedMap', () => {
  it('keeps insertion order, replaces in place of order, and never changes an old value', () => {
    let m = BucketedMap.empty<number>();
    const keys = Array.from({ length: 500 }, (_, i) => `run-${i}`);
    for (const [i, k] of keys.entries()) m = m.with(k, i);
    const before = m;
    m = m.with('run-7', 700).withMany([
      ['run-3', 300],
      ['new', -1],
    ]);
    expect(m.size).toBe(501);
    expect(m.keys()).toEqual([...keys, 'new']);
    expect(m.get('run-7')).toBe(700);
    expect(m.get('run-3')).toBe(300);
    expect(before.get('run-7')).toBe(7);
    expect(before.has('new')).toBe(false);
    expect(before.size).toBe(500);
    expect([...m].slice(0, 4)).toEqual([0, 1, 2, 300]);
    expect(m.toJSON()['run-7']).toBe(700);
  });

  it('an empty batch returns the same value, so selectors see no change', () => {
    const m = BucketedMap.from([['a', 1]]);
    expect(m.withMany([])).toBe(m);
  });
});

describe('ChildIndex', () => {
  const run = (id: string, parentRunId?: string) => ({ id, parentRunId });
  it('reads only what was appended, and starts over when the order is replaced', () => {
    const runs = new Map<string, ReturnType<typeof run>>();
    const lookup = { get: (id: string) => runs.get(id) as never };
    const idx = new ChildIndex();
    let order: string[] = [];
    const add = (id: string, parent?: string) => {
      runs.set(id, run(id, parent));
      order = [...order, id];
    };
    add('root');
    add('a', 'root');
    add('b', 'root');
    expect(idx.of(order, lookup, 'root')).toEqual(['a', 'b']);
    add('a1', 'a');
    add('c', 'root');
    expect(idx.of(order, lookup, 'root')).toEqual(['a', 'b', 'c']);
    expect(idx.of(order, lookup, 'a')).toEqual(['a1']);
    // A restore replaces the order with a different one.
    runs.set('x', run('x', 'root'));
    order = ['root', 'x'];
    expect(idx.of(order, lookup, 'root')).toEqual(['x']);
    expect(idx.of(order, lookup, 'a')).toEqual([]);
  });

  it('counts live children, skipping for good the ones that ended first', () => {
    const runs = new Map([['p', run('p')], ...['c1', 'c2', 'c3', 'c4'].map((id) => [id, run(id, 'p')] as const)]);
    const lookup = { get: (id: string) => runs.get(id) as never };
    const order = ['p', 'c1', 'c2', 'c3', 'c4'];
    const ended = new Set<string>();
    const idx = new ChildIndex();
    const live = () => idx.liveCount(order, lookup, 'p', (id) => !ended.has(id));
    expect(live()).toBe(4);
    ended.add('c3');
    expect(live()).toBe(3);
    ended.add('c1');
    ended.add('c2');
    expect(live()).toBe(1);
    ended.add('c4');
    expect(live()).toBe(0);
  });
});

describe('startInGroups', () => {
  it('starts every call once, in order, lets the event loop run between groups, and waits for all', async () => {
    const started: number[] = [];
    const finished = new Set<number>();
    let turnsSeen = 0;
    const tick = setInterval(() => {}, 0);
    const onTurn = () => {
      turnsSeen++;
    };
    const results: string[] = new Array(50);
    let immediateRan = false;
    setImmediate(() => {
      immediateRan = true;
      onTurn();
    });
    const startedBeforeFirstTurn: number[] = [];
    await startInGroups(
      50,
      async (i) => {
        started.push(i);
        if (!immediateRan) startedBeforeFirstTurn.push(i);
        await new Promise((r) => setImmediate(r));
        results[i] = `r${i}`;
        finished.add(i);
      },
      16,
    );
    clearInterval(tick);
    expect(started).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(finished.size).toBe(50);
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => `r${i}`));
    // The first group started before the event loop's next turn, and only it.
    expect(startedBeforeFirstTurn).toEqual(Array.from({ length: 16 }, (_, i) => i));
    expect(turnsSeen).toBe(1);
  });

  it('a failing call is never an unhandled rejection, the others still start, and the first error is thrown after all settle', async () => {
    const started: number[] = [];
    const p = startInGroups(
      20,
      async (i) => {
        started.push(i);
        if (i === 3) throw new Error('boom');
      },
      4,
    );
    await expect(p).rejects.toThrow('boom');
    expect(started).toHaveLength(20);
  });
});
