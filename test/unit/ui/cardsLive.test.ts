// A card's child runs come from an id index kept per creation order (src/ui/cards/live.ts):
// run objects are read from the snapshot at hand, so a run updated since the index was built
// shows its new version; children appended later are bound in order; the usage of a call's
// children is the same roll-up model/usage.ts computes over the whole tree.
import { describe, expect, it } from 'vitest';
import { boundRuns, callUsage } from '../../../src/ui/cards/live.js';
import { subtreeUsage } from '../../../src/model/usage.js';
import type { Run } from '../../../src/model/run.js';
import type { RuntimeState } from '../../../src/model/state.js';
import type { ToolTranscriptItem } from '../../../src/model/transcript.js';
import { makeRun } from '../../helpers/runs.js';

// A plain Map stands in for the store's run table: the index reads only get() and the order.
type Snap = Pick<RuntimeState, 'runs' | 'runOrder'>;

function snapshot(runs: Run[]): Snap {
  return { runs: new Map(runs.map((r) => [r.id, r])), runOrder: runs.map((r) => r.id) } as unknown as Snap;
}

function call(runId: string, callId: string): ToolTranscriptItem {
  return {
    id: `i_${callId}`,
    kind: 'tool',
    runId,
    callId,
    name: 'spawn_subagent',
    args: {},
    rawArgs: '{}',
    status: 'running',
    startedAt: 0,
  };
}

const child = (id: string, parent: string, callId: string, patch: Partial<Run> = {}) =>
  makeRun(id, { parentRunId: parent, parentToolCallId: callId, kind: 'subagent', depth: 1, ...patch });

describe('a card bound to the runs its call started', () => {
  it('reads each run as the snapshot has it now, in creation order, none lost or repeated', () => {
    const root = makeRun('root');
    const kids = Array.from({ length: 50 }, (_, i) => child(`c${i}`, 'root', i % 2 === 0 ? 'call_even' : 'call_odd'));
    const s1 = snapshot([root, ...kids]);
    const even = boundRuns(s1, call('root', 'call_even'));
    expect(even.map((r) => r.id)).toEqual(kids.filter((_, i) => i % 2 === 0).map((r) => r.id));
    // The same order, runs updated: a new `runs`, the same runOrder (the index is reused).
    const updated = kids.map((k) => ({ ...k, status: 'completed' as const, tokensOut: 7 }));
    const s2 = { runs: new Map([root, ...updated].map((r) => [r.id, r])), runOrder: s1.runOrder } as unknown as Snap;
    const even2 = boundRuns(s2, call('root', 'call_even'));
    expect(even2.map((r) => r.id)).toEqual(even.map((r) => r.id));
    expect(even2.every((r) => r.status === 'completed' && r.tokensOut === 7)).toBe(true);
    // Appended children join their call's list, after the ones before them.
    const more = [child('c50', 'root', 'call_even'), child('c51', 'root', 'call_other')];
    const s3 = snapshot([root, ...updated, ...more]);
    expect(boundRuns(s3, call('root', 'call_even')).map((r) => r.id)).toEqual([...even.map((r) => r.id), 'c50']);
    expect(boundRuns(s3, call('root', 'call_other')).map((r) => r.id)).toEqual(['c51']);
    expect(boundRuns(s3, call('other-run', 'call_even'))).toEqual([]);
    // Every child bound to exactly one of the root's three calls.
    const bound = ['call_even', 'call_odd', 'call_other'].flatMap((c) => boundRuns(s3, call('root', c)).map((r) => r.id));
    expect(bound.length).toBe(52);
    expect(new Set(bound).size).toBe(52);
  });

  it('a restored card binds nothing', () => {
    const s = snapshot([makeRun('root'), child('c0', 'root', 'call_a')]);
    expect(boundRuns(s, { ...call('root', 'call_a'), restored: true })).toEqual([]);
  });

  it("sums each child's whole subtree as model/usage does over the tree", () => {
    const runs: Run[] = [makeRun('root')];
    // A random tree three levels deep under two calls of the root.
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 120; i++) {
      const parent = i < 10 ? 'root' : runs[1 + Math.floor(rnd() * Math.min(runs.length - 1, 60))].id;
      runs.push(
        child(`r${i}`, parent, i < 10 ? (i < 5 ? 'call_a' : 'call_b') : `call_${i}`, { tokensIn: i, tokensOut: 2 * i, costUsd: i / 1000 }),
      );
    }
    const s = snapshot(runs);
    const whole = subtreeUsage(s.runs, s.runOrder);
    for (const callId of ['call_a', 'call_b']) {
      const bound = boundRuns(s, call('root', callId));
      const got = callUsage(s, bound);
      const want = bound.reduce(
        (acc, r) => {
          const u = whole.get(r.id)!;
          return {
            tokensIn: acc.tokensIn + u.tokensIn,
            tokensOut: acc.tokensOut + u.tokensOut,
            costUsd: acc.costUsd + u.costUsd,
            descendants: acc.descendants + u.descendants,
          };
        },
        { tokensIn: 0, tokensOut: 0, costUsd: 0, descendants: 0 },
      );
      expect(got.tokensIn).toBe(want.tokensIn);
      expect(got.tokensOut).toBe(want.tokensOut);
      expect(got.descendants).toBe(want.descendants);
      expect(got.costUsd).toBeCloseTo(want.costUsd, 9);
    }
  });
});
