// An isolated child's worktree, branch and merge outcome everywhere the tree is (issue #23):
// the announce posted when a background child ends, /subagents info, the trace log's
// `worktree` event, the session file's last copy of the run and the tree export.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Run } from '../../../src/model/run.js';
import type { TraceEvent } from '../../../src/persistence/traceLog.js';
import { formatInfo } from '../../../src/ui/agents/subagentsFormat.js';
import { callsThenDone, delegateCall, sequence, text, until, type DelegateFixture } from '../delegate/helpers.js';
import { isoConfig, isoFixture, runsOf, sed, shell, tools } from './helpers.js';

let fx: DelegateFixture | undefined;

async function isolatedChild(merge: string, background: boolean) {
  const traced: TraceEvent[] = [];
  const appended = new Map<string, Run>();
  fx = await isoFixture({
    config: isoConfig(`merge = "${merge}"`),
    agents: {
      main: callsThenDone(
        delegateCall({ agent: 'w1', prompt: 'edit', isolation: 'worktree', ...(background ? { background: true } : {}) }),
      ),
      w1: sequence(tools(shell('s1', sed('s/^two$/TWO/'))), text('w1 done')),
    },
    // The session file keeps the last copy of each run.
    sinks: { trace: (e) => traced.push(e), appendRun: (r) => appended.set(r.id, r) },
  });
  await fx.runtime.startTurn('go');
  await until(() => ['merged', 'waiting', 'kept'].includes(runsOf(fx!, 'w1')[0]?.worktree?.state ?? ''), 15000, 'w1 settled');
  const w1 = runsOf(fx, 'w1')[0];
  return { w1, branch: w1.worktree!.branch, path: w1.worktree!.path, traced, appended };
}

const notices = () =>
  fx!.runtime.store
    .getState()
    .transcript.filter((i) => i.kind === 'notice')
    .map((i) => (i.kind === 'notice' ? i.text : ''));

describe('the announce of a background isolated child', () => {
  it('carries its worktree, branch and merge outcome (merged)', async () => {
    const { branch, path } = await isolatedChild('auto', true);
    await until(() => notices().some((n) => n.startsWith('Background task')), 15000, 'the announce');
    const announce = notices().find((n) => n.startsWith('Background task'))!;
    expect(announce.split('\n').pop()).toBe(`⎇ worktree ${branch} at ${path}: merged  (1 file +1 −1)`);
  });

  it('an entry waiting for the operator says so', async () => {
    const { branch, path } = await isolatedChild('ask', true);
    await until(() => notices().some((n) => n.startsWith('Background task')), 15000, 'the announce');
    const announce = notices().find((n) => n.startsWith('Background task'))!;
    expect(announce.split('\n').pop()).toBe(`⎇ worktree ${branch} at ${path}: waiting  (1 file +1 −1)`);
  });
});

describe('/subagents info, the trace log and the tree export', () => {
  it('carry the worktree, branch and merge outcome', async () => {
    const { w1, branch, path, traced, appended } = await isolatedChild('ask', false);
    const info = formatInfo(fx!.runtime.store.getState(), w1).split('\n');
    expect(info).toContain(`worktree: ${branch} (waiting) at ${path} — ⇢ merge waiting: a.txt +1 −1`);

    // The trace log: one `worktree` event per state after it ended, with branch and outcome.
    const events = traced.filter((e) => e.event === 'worktree' && e.run_id === w1.id);
    expect(events.map((e) => [e.branch, e.merge])).toEqual([[branch, 'waiting']]);
    expect(events[0]).toMatchObject({ agent_alias: 'w1', run_number: w1.number });
    // The session file's last copy of the run has the outcome.
    expect(appended.get(w1.id)?.worktree).toMatchObject({ branch, state: 'waiting', files: ['a.txt'] });

    // The operator applies it: the trace, the session file and the export follow.
    expect(await fx!.runtime.worktrees!.apply(w1.id)).toBe('merged');
    expect(traced.filter((e) => e.event === 'worktree' && e.run_id === w1.id).map((e) => e.merge)).toEqual(['waiting', 'merged']);
    expect(appended.get(w1.id)?.worktree?.state).toBe('merged');

    const json = fx!.runtime.exportTree(join(fx!.home, 'tree.json'));
    const report = JSON.parse(readFileSync(json.path, 'utf8'));
    const entry = report.runs.find((r: { runId?: string; id?: string }) => (r.runId ?? r.id) === w1.id);
    expect(entry.worktree).toEqual({ branch, state: 'merged', files: ['a.txt'], inherited: false });
    const md = readFileSync(fx!.runtime.exportTree(join(fx!.home, 'tree.md')).path, 'utf8');
    expect(md).toContain(`- worktree: ${branch} (merged) — a.txt`);
  });
});
