// Short task ids (issue #20 item 9): a prefix copied from a card resolves against the task
// records the caller can see, whichever run started the task; an ambiguous prefix names
// the candidates; a prefix of another caller's task matches nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { TaskStore, isTaskIdOrPrefix, matchTaskIds } from '../../../src/persistence/taskRecords.js';
import type { LoopbackReply } from '../../support/loopbackModel.js';
import { ambiguousTaskId, invalidTaskId, noResult } from '../../../src/tools/delegate/strings.js';
import { agent, delegateFixture, delegateResults, toml, type DelegateFixture, mainScript, recordTask, testHome } from './helpers.js';

let fx: DelegateFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const trusted = (alias: string) => agent(alias, 'risk_profile = "trusted"\n');
const CONFIG = trusted('main') + trusted('worker');
const call = (args: object, id: string): LoopbackReply => ({ kind: 'tools', calls: [{ id, name: 'delegate', args }] });

const A = '4ef3523f-1111-4111-8111-111111111111';
const B = '4ef3523f-2222-4222-8222-222222222222';
const C = '9abc0000-3333-4333-8333-333333333333';
const THEIRS = '7777aaaa-4444-4444-8444-444444444444';

describe('task id prefixes', () => {
  it('a prefix is hex and dashes, at least four characters; a full id matches itself', () => {
    expect(isTaskIdOrPrefix('4ef3523f')).toBe(true);
    expect(isTaskIdOrPrefix('4EF3-')).toBe(true);
    for (const bad of ['bad', '5', '', '../x', '-4ef3', 'zzzz', `${A}0`]) expect(isTaskIdOrPrefix(bad)).toBe(false);
    expect(matchTaskIds('4ef3523f', [A, B, C])).toEqual([A, B]);
    expect(matchTaskIds('9ABC', [A, B, C])).toEqual([C]);
    expect(matchTaskIds(A.toUpperCase(), [A, B])).toEqual([A]);
  });

  it('check_result and cancel_task resolve a unique prefix, refuse an ambiguous one naming the candidates', async () => {
    const home = testHome('prefix');
    const store = new TaskStore(home);
    // Records an earlier run left behind (another pid, finished).
    for (const id of [A, B, C]) recordTask(store, { task_id: id, pid: 1 });
    recordTask(store, { task_id: THEIRS, caller_chain: ['someone'], pid: 1 });
    fx = await delegateFixture({
      home,
      config: (url) => toml(url, CONFIG),
      agents: {
        main: mainScript(
          () => call({ action: 'check_result', task_id: '9abc0000' }, 'a'),
          () => call({ action: 'check_result', task_id: '4ef3523f' }, 'b'),
          () => call({ action: 'check_result', task_id: '7777aaaa' }, 'c'),
          () => call({ action: 'cancel_task', task_id: '4ef3' }, 'd'),
          () => call({ action: 'await_sessions', task_ids: ['9abc', '4ef3523f-2'], timeout_ms: 0 }, 'e'),
          () => call({ action: 'check_result', task_id: 'bad' }, 'f'),
        ),
      },
    });
    await fx.runtime.startTurn('go');
    const [unique, ambiguous, theirs, cancel, wait, bad] = delegateResults(fx.runtime);
    expect(JSON.parse(unique.result!)).toMatchObject({ task_id: C, output: `output of ${C}`, status: 'completed' });
    const named = `task_id '4ef3523f' is ambiguous: it starts 2 tasks (${A}, ${B}); use more characters or the full id.`;
    expect(ambiguous.result).toBe(named);
    expect(ambiguousTaskId('4ef3523f', [A, B])).toBe(named);
    // Another caller's task is not there for main, by prefix either.
    expect(theirs.result).toBe(noResult('7777aaaa'));
    expect(cancel.result).toBe(ambiguousTaskId('4ef3', [A, B]));
    expect(wait.result).toContain(`output of ${C}`);
    expect(wait.result).toContain(`output of ${B}`);
    expect(bad.result).toBe(invalidTaskId('bad'));
  });
});
