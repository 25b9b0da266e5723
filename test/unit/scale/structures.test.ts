// The structures that keep a large tree's per-event cost flat: the bucketed run table, the
// incremental child index and the grouped start of parallel tool calls.
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BucketedMap } from '../../../src/model/bucketedMap.js';
import { childObserved, childrenOfCall, emptyLedger, subtreeObserved, type RunLedger } from '../../../src/model/ledger.js';
import { ChildIndex } from '../../../src/model/childIndex.js';
import { GroupedStarter, startInGroups } from '../../../src/runtime/batchedStart.js';

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

describe('ChildIndex by call', () => {
  it('lists the children each call of a parent started, in creation order, and only those', () => {
    const runs = new Map<string, { id: string; parentRunId?: string; parentToolCallId?: string }>();
    const lookup = { get: (id: string) => runs.get(id) };
    let order: string[] = [];
    const add = (id: string, parentRunId?: string, parentToolCallId?: string) => {
      runs.set(id, { id, parentRunId, parentToolCallId });
      order = [...order, id];
    };
    const idx = new ChildIndex();
    add('root');
    add('a', 'root', 'call_1');
    add('b', 'root', 'call_2');
    add('c', 'root', 'call_1');
    add('a1', 'a', 'call_1');
    expect(idx.ofCall(order, lookup, 'root', 'call_1')).toEqual(['a', 'c']);
    expect(idx.ofCall(order, lookup, 'root', 'call_2')).toEqual(['b']);
    // The same call id under another parent is another call.
    expect(idx.ofCall(order, lookup, 'a', 'call_1')).toEqual(['a1']);
    expect(idx.ofCall(order, lookup, 'root', 'call_3')).toEqual([]);
  });
});

describe('the ledger roll-ups over the shared child index', () => {
  type R = { id: string; alias: string; status: string; parentRunId?: string; parentToolCallId?: string; observed?: RunLedger };
  const ledger = (calls: number, command?: string): RunLedger => ({
    ...emptyLedger(),
    toolCalls: calls,
    commands: command ? [{ command, exitCode: 0, durationMs: 1, callId: 'x', observed: 'git' }] : [],
  });
  function tree(prefix: string): { runs: Map<string, R>; order: string[] } {
    // A finished child of `parent`, started by call `callId`, that made `calls` tool calls and ran `command`.
    const child = (id: string, parent: string, callId: string, calls: number, command: string): R => ({
      id: `${prefix}${id}`,
      alias: 'main',
      status: 'completed',
      parentRunId: `${prefix}${parent}`,
      parentToolCallId: callId,
      observed: ledger(calls, command),
    });
    const list: R[] = [
      { id: `${prefix}root`, alias: 'main', status: 'running', observed: ledger(2) },
      child('a', 'root', 'c1', 1, 'make a'),
      child('b', 'root', 'c2', 3, 'make b'),
      child('a1', 'a', 'd1', 4, 'make a1'),
    ];
    return { runs: new Map(list.map((r) => [r.id, r])), order: list.map((r) => r.id) };
  }

  it('sum each subtree, from two stores asked in turn, as a walk over every run would', () => {
    const x = tree('x-');
    const y = tree('y-');
    y.runs.get('y-a1')!.observed = ledger(10, 'other');
    for (let round = 0; round < 2; round++) {
      expect(subtreeObserved(x.runs, x.order, 'x-root').toolCalls).toBe(10);
      expect(subtreeObserved(y.runs, y.order, 'y-root').toolCalls).toBe(16);
      expect(subtreeObserved(x.runs, x.order, 'x-a').toolCalls).toBe(5);
      const a = childObserved(x.runs, x.order, 'x-a');
      expect(a.summary.runs).toBe(2);
      expect(a.commands.map((c) => c.command)).toEqual(['make a', 'make a1']);
      expect(childObserved(y.runs, y.order, 'y-a').commands.map((c) => c.command)).toEqual(['make a', 'other']);
      expect(childrenOfCall(x.runs, x.order, 'x-root', 'c2')).toEqual(['x-b']);
    }
  });

  it('see a child added later (the order grown by appending) at the next call', () => {
    const x = tree('g-');
    expect(subtreeObserved(x.runs, x.order, 'g-b').runs).toBe(1);
    x.runs.set('g-b1', { id: 'g-b1', alias: 'main', status: 'running', parentRunId: 'g-b', parentToolCallId: 'e1', observed: ledger(7) });
    const grown = [...x.order, 'g-b1'];
    expect(subtreeObserved(x.runs, grown, 'g-b').toolCalls).toBe(10);
    expect(childrenOfCall(x.runs, grown, 'g-b', 'e1')).toEqual(['g-b1']);
  });
});

describe('GroupedStarter with a ramp (calls started as a reply streams them)', () => {
  it('starts the first call at once and each later group after an I/O pass, every call once, in order', async () => {
    const server: Server = createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as AddressInfo;
    const started: number[] = [];
    // The first call opens a connection, as a child's request does: it must be connected
    // before the second call starts (the connect is read in the event loop's I/O phase).
    let connectedBefore: number | undefined;
    const starter = new GroupedStarter(
      async (i) => {
        started.push(i);
        if (i === 0) {
          await new Promise<void>((resolve) => {
            const sock = connect(port, '127.0.0.1', () => {
              connectedBefore = started.length;
              sock.destroy();
              resolve();
            });
          });
        }
      },
      4,
      true,
    );
    // Calls arrive as the reply is parsed: in one run of promise callbacks, no I/O between.
    for (let i = 0; i < 20; i++) {
      await Promise.resolve();
      starter.add(i);
      if (i === 0) expect(started).toEqual([0]);
    }
    expect(started).toEqual([0]);
    await starter.settled();
    await new Promise<void>((r) => server.close(() => r()));
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(connectedBefore).toBe(1);
  });

  it('groups grow 1, 2, 4 up to the group size, one group per pass of the event loop', async () => {
    const groups: number[][] = [];
    let pass = 0;
    let current: number[] = [];
    const starter = new GroupedStarter(
      async (i) => {
        current.push(i);
      },
      4,
      true,
    );
    const tick = () => {
      if (current.length) groups.push(current);
      current = [];
      pass++;
      if (pass < 40) setImmediate(tick);
    };
    for (let i = 0; i < 15; i++) starter.add(i);
    setImmediate(tick);
    await starter.settled();
    await new Promise((r) => setImmediate(r));
    tick();
    expect(groups.flat()).toEqual(Array.from({ length: 15 }, (_, i) => i));
    expect(groups.map((g) => g.length)).toEqual([1, 2, 4, 4, 4]);
  });

  it('a failing call is never an unhandled rejection; the others still start and the first error is thrown after all settle', async () => {
    const started: number[] = [];
    const starter = new GroupedStarter(
      async (i) => {
        started.push(i);
        if (i === 2) throw new Error('boom');
      },
      2,
      true,
    );
    for (let i = 0; i < 9; i++) starter.add(i);
    await expect(starter.settled()).rejects.toThrow('boom');
    expect(started).toEqual(Array.from({ length: 9 }, (_, i) => i));
  });
});
