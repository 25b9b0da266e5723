// Receipts where a parallel delegation and a background task deliver them: each receipt
// inside its target's block, and a background task's in what check_result returns — byte
// for byte, against the loopback model.
import { describe, expect, it } from 'vitest';
import { TaskStore } from '../../../src/persistence/taskRecords.js';
import {
  delegateFixture,
  delegateResults,
  lastToolResult,
  sequence,
  text,
  until,
  UUID,
  type DelegateFixture,
} from '../delegate/helpers.js';
import { ledgerConfig, shellCall, tools } from './helpers.js';

let fx: DelegateFixture | undefined;

const call = (args: object, id: string) => ({ kind: 'tools' as const, calls: [{ id, name: 'delegate', args }] });

const WORKER_RECEIPT =
  '[runtime receipt: 1 tool call (1 failed); files changed: none; shell changes not observed for 1 command; commands: false (exit 1)]\n' +
  '[runtime warning: last command failed (exit 1)]';
const HELPER_RECEIPT =
  '[runtime receipt: 0 tool calls; files changed: none; commands: none]\n' +
  '[runtime warning: no tools used]\n[runtime warning: claims changes, none observed]';

describe('receipts in parallel delegation and background tasks', () => {
  it('a parallel delegation puts each receipt inside its target block', async () => {
    fx = await delegateFixture({
      config: ledgerConfig(true),
      agents: {
        main: (req, nth) => (nth === 0 ? call({ parallel: ['worker', 'helper'], prompt: 'go' }, 'p') : text('done')),
        worker: sequence(tools(shellCall('s1', 'false')), text('Worker done.')),
        helper: () => text('I updated it.'),
      },
    });
    await fx.runtime.startTurn('go');
    const expected =
      '[Parallel delegation: 2 agents]\n\n' +
      `--- worker (success=true) ---\n[Agent 'worker' (openai-compatible/fake-model, agentic)]\nWorker done.\n${WORKER_RECEIPT}\n\n` +
      `--- helper (success=true) ---\n[Agent 'helper' (openai-compatible/fake-model, agentic)]\nI updated it.\n${HELPER_RECEIPT}`;
    const item = delegateResults(fx.runtime)[0];
    expect(item.result).toBe(expected);
    const mainReqs = fx.requestsOf('main');
    expect(lastToolResult(mainReqs[mainReqs.length - 1])).toBe(expected);
    // The card keeps each child's observed section, receipts off the card's own text.
    expect(item.observed?.map((o) => [o.alias, o.flags.map((f) => f.kind)])).toEqual([
      ['worker', ['last_command_failed']],
      ['helper', ['no_tools', 'claims_changes']],
    ]);
  });

  it("a background task's check_result carries its receipt after the output", async () => {
    let taskId = '';
    fx = await delegateFixture({
      config: ledgerConfig(true),
      agents: {
        main: (req, nth) => {
          if (nth === 0) return call({ agent: 'worker', prompt: 'bg job', background: true }, 'bg');
          if (nth === 1) return text('launched');
          if (nth === 2) return call({ action: 'check_result', task_id: taskId }, 'c');
          return text('checked');
        },
        worker: sequence(tools(shellCall('s1', 'false')), text('Worker done.')),
      },
    });
    await fx.runtime.startTurn('launch');
    taskId = UUID.exec(delegateResults(fx.runtime)[0].result ?? '')?.[0] ?? '';
    expect(taskId).not.toBe('');
    const store = new TaskStore(fx.home);
    await until(() => store.get(taskId)?.status === 'completed', 10000, 'background task completed');
    await fx.runtime.startTurn('check');
    const check = delegateResults(fx.runtime)[1];
    const view = JSON.parse(check.result!);
    expect(view.status).toBe('completed');
    expect(view.output).toBe(`Worker done.\n${WORKER_RECEIPT}`);
    const mainReqs = fx.requestsOf('main');
    expect(JSON.parse(lastToolResult(mainReqs[mainReqs.length - 1])).output).toBe(`Worker done.\n${WORKER_RECEIPT}`);
  });
});
