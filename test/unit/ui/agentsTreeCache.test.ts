// The /agents tree keeps what a row derives from its run per run object (tree.ts: label,
// flags, the row itself; rowFormat.ts: the row's width), so a refresh re-derives only the
// runs that changed. Whatever the store did in between, the view and the columns must read
// exactly as if every row were made anew: here each step's view is compared with the view
// of a copy of the same snapshot whose run objects the caches have never seen.
import { describe, expect, it } from 'vitest';
import { addRun, addUsage, createRuntimeStore, patchRun, setRunStatus, type RuntimeStore } from '../../../src/runtime/store.js';
import { buildTree, type AgentsFilter } from '../../../src/ui/agents/tree.js';
import { chooseColumns } from '../../../src/ui/agents/rowFormat.js';
import { anyRunLive } from '../../../src/ui/agents/paneModel.js';
import { BucketedMap } from '../../../src/model/bucketedMap.js';
import type { Run, RunStatus } from '../../../src/model/run.js';
import type { RunLedger } from '../../../src/model/ledger.js';
import type { RuntimeState } from '../../../src/model/state.js';
import { initI18n } from '../../../src/i18n/index.js';
import { makeRun } from '../../helpers/runs.js';

/** The same snapshot with every run a new object (equal fields). */
function freshCopy(s: RuntimeState): RuntimeState {
  return { ...s, runs: BucketedMap.from(s.runOrder.map((id) => [id, { ...s.runs.get(id)! }] as const)), runOrder: [...s.runOrder] };
}

/** A small deterministic generator, so a failure replays. */
function random(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

const ledger = (files: string[], toolCalls: number): RunLedger => ({
  toolCalls,
  failedCalls: 0,
  byTool: {},
  files: files.map((path) => ({ path, change: 'modified', added: 1, removed: 0, tool: 'edit_file', callId: `call-${path}`, via: 'tool' })),
  commands: [],
  mcp: [],
  approvals: [],
});

const LIVE: RunStatus[] = ['queued', 'running', 'paused', 'awaiting_approval'];
const ENDS: RunStatus[] = ['completed', 'failed', 'killed'];

function step(store: RuntimeStore, pick: (n: number) => number, n: number): void {
  const s = store.getState();
  const ids = s.runOrder;
  const id = ids[pick(ids.length)];
  const parent = s.runs.get(id)!;
  switch (pick(6)) {
    case 0: {
      // A new child, under any run (a live one or a finished one: its sums change).
      const child: Run = makeRun(`run-${n}`, {
        parentRunId: parent.id,
        rootRunId: parent.rootRunId,
        depth: parent.depth + 1,
        kind: pick(2) ? 'subagent' : 'delegate',
        alias: pick(2) ? 'researcher' : 'writer',
        task: `task ${n}`,
        sessionKey: `k-${n}`,
        createdAt: 1_000 + n,
      });
      addRun(store, child);
      setRunStatus(store, child.id, LIVE[pick(LIVE.length)]);
      return;
    }
    case 1:
      setRunStatus(store, id, LIVE[pick(LIVE.length)], pick(2) ? { queuePosition: 1 + pick(3) } : {});
      return;
    case 2:
      // Ends with an answer that claims a change (or not) and a ledger with files (or not).
      patchRun(store, id, { observed: ledger(pick(2) ? ['a.ts'] : [], pick(3)), result: pick(2) ? 'I updated the file' : 'done' });
      setRunStatus(store, id, ENDS[pick(ENDS.length)]);
      return;
    case 3:
      addUsage(store, id, 10 * pick(50), pick(20), pick(5) / 100);
      return;
    case 4:
      // A live descendant's ledger changes under a parent that may have finished.
      patchRun(store, id, { observed: ledger(pick(2) ? ['b.ts', 'c.ts'] : [], 1 + pick(2)) });
      return;
    default:
      patchRun(store, id, { iterations: pick(9) });
  }
}

describe('the /agents tree kept per run object', () => {
  it('reads, after every kind of store change, exactly as a tree made from new run objects', () => {
    initI18n('en');
    const pick = random(24);
    const store = createRuntimeStore('s1');
    addRun(store, makeRun('root-a', { task: 'plan', createdAt: 1_000 }));
    setRunStatus(store, 'root-a', 'running');
    addRun(store, makeRun('root-b', { task: 'an earlier turn', createdAt: 999 }));
    setRunStatus(store, 'root-b', 'running');
    let compared = 0;
    for (let n = 0; n < 400; n++) {
      step(store, pick, n);
      const s = store.getState();
      const copy = freshCopy(s);
      for (const filter of ['all', 'running', 'finished'] as AgentsFilter[]) {
        const kept = buildTree(s, 60, filter, 5_000);
        const fresh = buildTree(copy, 60, filter, 5_000);
        expect(kept).toEqual(fresh);
        for (const width of [60, 140])
          expect(chooseColumns(kept.rows, width, 1), `step ${n}, ${filter}, width ${width}`).toEqual(chooseColumns(fresh.rows, width, 1));
        compared += kept.rows.length;
      }
    }
    // The walk reached rows of every kind: children of finished parents, flags, sums.
    const rows = buildTree(store.getState(), 60, 'all', 5_000).rows;
    expect(rows.some((r) => r.flags?.some((f) => f.kind === 'claims_changes'))).toBe(true);
    expect(rows.some((r) => r.subtree && r.level > 0)).toBe(true);
    expect(compared).toBeGreaterThan(10_000);
  });

  it('hands back the same row for a run that did not change, and a new one for a run that did', () => {
    initI18n('en');
    const store = createRuntimeStore('s1');
    addRun(store, makeRun('root', { task: 'plan', createdAt: 1 }));
    setRunStatus(store, 'root', 'running');
    for (const id of ['c1', 'c2']) {
      addRun(store, makeRun(id, { parentRunId: 'root', depth: 1, kind: 'subagent', rootRunId: 'root', createdAt: 2 }));
      setRunStatus(store, id, 'running');
    }
    const before = buildTree(store.getState(), 60, 'all', 5_000).rows;
    patchRun(store, 'c2', { iterations: 3 });
    const after = buildTree(store.getState(), 60, 'all', 5_000).rows;
    expect(after[1]).toBe(before[1]);
    expect(after[2]).not.toBe(before[2]);
    expect(after[2].run.iterations).toBe(3);
    // The root's sums did not change (iterations are not usage): its row is the same too.
    expect(after[0]).toBe(before[0]);
    addUsage(store, 'c1', 100, 5, 0.01);
    const spent = buildTree(store.getState(), 60, 'all', 5_000).rows;
    expect(spent[0]).not.toBe(after[0]);
    expect(spent[0].subtree).toMatchObject({ tokensIn: 100, tokensOut: 5 });
  });
});

describe('whether anything is live (the pane ticks its archive window while it is)', () => {
  it('finds a live run wherever it is in the order, and none once every run has ended', () => {
    const store = createRuntimeStore('s1');
    addRun(store, makeRun('root', { task: 'plan', createdAt: 1 }));
    setRunStatus(store, 'root', 'running');
    for (const id of ['c1', 'c2', 'c3']) {
      addRun(store, makeRun(id, { parentRunId: 'root', depth: 1, kind: 'subagent', rootRunId: 'root', createdAt: 2 }));
      setRunStatus(store, id, 'running');
    }
    expect(anyRunLive(store.getState())).toBe(true);
    for (const id of ['c3', 'c2', 'c1']) setRunStatus(store, id, 'completed');
    // Only the oldest run, the turn, is still live.
    expect(anyRunLive(store.getState())).toBe(true);
    setRunStatus(store, 'root', 'completed');
    expect(anyRunLive(store.getState())).toBe(false);
    // An id in the order without a run (the pane's /subagents view can hand such a state) is not live.
    expect(anyRunLive({ runs: store.getState().runs, runOrder: [...store.getState().runOrder, 'gone'] })).toBe(false);
  });
});
