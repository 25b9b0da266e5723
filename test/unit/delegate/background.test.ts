// Background tasks: launched at once, detached from the turn, persisted with progress under
// $ARBOR_HOME/tasks, managed through check_result / list_results / cancel_task /
// await_sessions (owner-scoped), announced in the chat when they end, and read back as lost
// after a restart.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TaskStore, type TaskRecord } from '../../../src/persistence/taskRecords.js';
import type { LoopbackReply } from '../../support/loopbackModel.js';
import { awaitTimeoutMs } from '../../../src/tools/delegate/args.js';
import { AWAIT_PENDING, backgroundStarted, duplicateTaskId, invalidTaskId, noResult } from '../../../src/tools/delegate/strings.js';
import {
  agent,
  delegateFixture,
  delegateResults,
  sequence,
  text,
  toml,
  until,
  UUID,
  type DelegateFixture,
  delegations,
  mainScript,
  recordTask,
  testHome,
  afterOneTurn,
} from './helpers.js';

let fx: DelegateFixture | undefined;

/** Runs turn "go" of `fx` and interrupts it once each of `aliases` has sent its first
 * request (`what`); returns the runs after the turn has ended. */
async function interruptOnceAsked(aliases: string[], what: string) {
  const turn = fx!.runtime.startTurn('go');
  await until(() => aliases.every((a) => fx!.requestsOf(a).length === 1), 5000, what);
  fx!.runtime.interrupt();
  await turn;
  return fx!.runtime.store.getState().runs.values();
}
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const trusted = (alias: string, extra = '') => agent(alias, `risk_profile = "trusted"\n${extra}`);
const CONFIG = trusted('main') + trusted('worker', 'runtime_profile = "agentic"') + trusted('plain');

const call = (args: object, id: string): LoopbackReply => ({ kind: 'tools', calls: [{ id, name: 'delegate', args }] });
const record = (store: TaskStore, fields: Partial<TaskRecord> & { task_id: string }) =>
  recordTask(store, { output: 'old output', ...fields });
const taskIdIn = (s: string) => UUID.exec(s)?.[0] ?? '';

describe('launch', () => {
  it('returns the task id at once, runs detached, and the record ends completed with progress', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    fx = await afterOneTurn(CONFIG, {
      main: mainScript(() => call({ agent: 'worker', prompt: 'long job', background: true }, 'bg')),
      worker: async (req, nth) => {
        if (nth === 0) return { kind: 'tools', calls: [{ id: 'l', name: 'list_files', args: {} }] };
        await gate;
        return text('Line one\nLine two\nLine three\nLine four');
      },
    });
    // The turn finished while the worker is still blocked.
    const [launch] = delegateResults(fx.runtime);
    const id = taskIdIn(launch.result!);
    expect(launch.status).toBe('ok');
    expect(launch.result).toBe(
      `Background task started for agent 'worker'.\ntask_id: ${id}\nUse action='check_result' with task_id='${id}' to retrieve the result.`,
    );
    expect(launch.result).toBe(backgroundStarted('worker', id));

    const store = new TaskStore(fx.home);
    // The worker's second model request is blocked: one tool done, two requests issued.
    await until(() => fx!.requestsOf('worker').length === 2, 5000, 'second worker request');
    await until(() => store.get(id)?.progress?.iterations === 2, 5000, 'progress after the tool');
    const running = store.get(id)!;
    expect(running).toMatchObject({ status: 'running', agent: 'worker', caller_chain: ['main'], pid: process.pid });
    expect(running.progress).toMatchObject({ iterations: 2, tools_completed: 1, last_tool: { name: 'list_files', success: true } });
    expect(running.progress!.recent_tools.map((t) => t.name)).toEqual(['list_files']);

    // Detached: its own root, no parent run, linked to the launching call by id only.
    const run = fx.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.kind === 'background')!;
    expect(run).toMatchObject({ alias: 'worker', parentRunId: undefined, rootRunId: run.id, taskId: id, parentToolCallId: 'bg' });

    release();
    await until(() => store.get(id)?.status === 'completed', 5000, 'task completed');
    const done = store.get(id)!;
    expect(done.output).toBe('Line one\nLine two\nLine three\nLine four');
    expect(done.finished_at).not.toBeNull();
    // The chat hears about it, with status from the outcome and the first lines only.
    const notice = fx.runtime.store.getState().transcript.find((i) => i.kind === 'notice' && i.text.includes(id.slice(0, 8)));
    expect(notice && notice.kind === 'notice' && notice.level).toBe('info');
    const noticeText = notice && notice.kind === 'notice' ? notice.text : '';
    expect(noticeText).toMatch(
      /^Background task [0-9a-f]{8} \(worker\) completed after \d+\.\ds · \d+ tokens · ~\$\d+\.\d{4}\nLine one\nLine two\nLine three\nObserved: 1 tool call · no files changed$/,
    );
  });

  it('argument errors: an empty task_ids list, an id with no record', async () => {
    const unknown = '123e4567-e89b-42d3-a456-426614174000';
    fx = await afterOneTurn(CONFIG, {
      main: mainScript(
        () => call({ action: 'await_sessions', task_ids: [] }, 'a'),
        () => call({ action: 'check_result', task_id: unknown }, 'b'),
        () => call({ action: 'check_result' }, 'c'),
      ),
    });
    const [badAwait, missing, noId] = delegateResults(fx.runtime);
    expect(badAwait.result).toBe("'task_ids' must be a non-empty list of task ids");
    expect(missing.result).toBe(`No result found for task_id '${unknown}'`);
    expect(missing.result).toBe(noResult(unknown));
    expect(noId.result).toBe("Missing or empty 'task_id' parameter");
  });
});

describe('task management actions', () => {
  it('check_result returns the view with elapsed_secs; list_results only rows whose chain has the caller', async () => {
    const home = testHome();
    const store = new TaskStore(home);
    const mine = '11111111-1111-4111-8111-111111111111';
    const theirs = '22222222-2222-4222-8222-222222222222';
    const viaChild = '33333333-3333-4333-8333-333333333333';
    const progress = {
      last_activity_at: new Date().toISOString(),
      iterations: 1,
      tools_completed: 0,
      last_tool: null,
      timeout_budget_secs: 30,
      recent_tools: [],
      receipt_tail: [],
    };
    record(store, { task_id: mine, progress });
    record(store, { task_id: theirs, caller_chain: ['someone'] });
    record(store, { task_id: viaChild, caller_chain: ['main', 'lead'] });
    fx = await delegateFixture({
      home,
      config: (url) => toml(url, CONFIG),
      agents: {
        main: mainScript(
          () => call({ action: 'check_result', task_id: mine.toUpperCase() }, 'a'),
          () => call({ action: 'check_result', task_id: theirs }, 'b'),
          () => call({ action: 'list_results' }, 'c'),
        ),
      },
    });
    await fx.runtime.startTurn('go');
    const [check, other, list] = delegateResults(fx.runtime);
    const view = JSON.parse(check.result!);
    expect(view).toMatchObject({ task_id: mine, status: 'completed', output: 'old output', agent: 'worker' });
    expect(view.progress).toMatchObject({ iterations: 1, timeout_budget_secs: 30, receipt_tail: [] });
    expect(typeof view.progress.elapsed_secs).toBe('number');
    // Another caller's row does not exist as far as main is concerned.
    expect(other.result).toBe(noResult(theirs));
    const ids = (JSON.parse(list.result!).tasks as Array<{ task_id: string }>).map((t) => t.task_id).sort();
    expect(ids).toEqual([mine, viaChild]);
  });

  it('task ids that are not UUIDs (path traversal included) are refused without touching the disk', async () => {
    fx = await afterOneTurn(CONFIG, {
      main: mainScript(
        () => call({ action: 'check_result', task_id: '../../config' }, 'a'),
        () => call({ action: 'cancel_task', task_id: '../tasks/x.json' }, 'b'),
        () => call({ action: 'await_sessions', task_ids: ['..%2F..%2Fetc'] }, 'c'),
      ),
    });
    const [check, cancel, wait] = delegateResults(fx.runtime);
    expect(check.result).toBe("Invalid task_id '../../config': a task id is a UUID such as 123e4567-e89b-12d3-a456-426614174000.");
    expect(cancel.result).toBe(invalidTaskId('../tasks/x.json'));
    expect(wait.result).toBe(invalidTaskId('..%2F..%2Fetc'));
    expect(() => readdirSync(join(fx!.home, 'tasks'))).toThrow();
  });

  it('cancel_task stops a running task; the record and the run say cancelled', async () => {
    fx = await delegateFixture({
      config: (url) => toml(url, CONFIG),
      agents: {
        main: mainScript(
          () => call({ agent: 'worker', prompt: 'forever', background: true }, 'a'),
          (prev) => call({ action: 'cancel_task', task_id: taskIdIn(prev) }, 'b'),
          () => call({ action: 'cancel_task', task_id: taskIdIn(delegateResults(fx!.runtime)[0].result!) }, 'c'),
        ),
        worker: () => ({ kind: 'hang' }),
      },
    });
    await fx.runtime.startTurn('go');
    const [launch, cancel, again] = delegateResults(fx.runtime);
    const id = taskIdIn(launch.result!);
    expect(cancel.result).toBe(`Cancelled task_id '${id}' (agent 'worker').`);
    expect(again.result).toBe(`Task '${id}' already finished with status 'cancelled'; nothing to cancel.`);
    const rec = new TaskStore(fx.home).get(id)!;
    expect(rec).toMatchObject({ status: 'cancelled', error: 'cancelled with cancel_task' });
    const run = fx.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.kind === 'background')!;
    expect(run.status).toBe('cancelled');
    const notice = fx.runtime.store.getState().transcript.find((i) => i.kind === 'notice');
    expect(notice && notice.kind === 'notice' && notice.level).toBe('warn');
  });
});

describe('other ways a background task ends', () => {
  it('a kill from the UI and a shutdown both end the record as cancelled, saying why', async () => {
    fx = await afterOneTurn(CONFIG, {
      main: sequence(
        delegations([
          { agent: 'worker', prompt: 'one', background: true },
          { agent: 'worker', prompt: 'two', background: true },
        ]),
        text('done'),
      ),
      worker: () => ({ kind: 'hang' }),
    });
    await until(() => fx!.requestsOf('worker').length === 2, 5000, 'both workers asked');
    const [killed, shut] = delegateResults(fx.runtime).map((i) => taskIdIn(i.result!));
    const runOf = (id: string) =>
      fx!.runtime.store
        .getState()
        .runs.values()
        .find((r) => r.taskId === id)!;
    const store = new TaskStore(fx.home);

    expect(fx.runtime.kill(runOf(killed).id).killed).toBe(true);
    await until(() => store.get(killed)?.status === 'cancelled', 5000, 'killed task recorded');
    expect(store.get(killed)!.error).toBe('killed by the operator');
    expect(store.get(shut)!.status).toBe('running');
    const notice = fx.runtime.store.getState().transcript.find((i) => i.kind === 'notice');
    expect(notice && notice.kind === 'notice' ? notice.text : '').toMatch(/^Background task [0-9a-f]{8} \(worker\) killed after /);

    await fx.runtime.dispose();
    await until(() => store.get(shut)?.status === 'cancelled', 5000, 'shutdown recorded');
    expect(store.get(shut)!.error).toBe('cancelled: arbor shut down before the task finished');
  });
});

describe('await_sessions', () => {
  it('times out with partial results and an error; pending and missing are reported', async () => {
    const missing = '44444444-4444-4444-8444-444444444444';
    fx = await delegateFixture({
      config: (url) => toml(url, CONFIG),
      agents: {
        main: mainScript(
          () =>
            delegations([
              { agent: 'plain', prompt: 'quick', background: true },
              { agent: 'worker', prompt: 'slow', background: true },
            ]),
          () => {
            const ids = delegateResults(fx!.runtime).map((i) => taskIdIn(i.result!));
            return call({ action: 'await_sessions', task_ids: [...ids, missing], timeout_ms: 400 }, 'w');
          },
        ),
        plain: () => text('quick answer'),
        worker: () => ({ kind: 'hang' }),
      },
    });
    const started = Date.now();
    await fx.runtime.startTurn('go');
    const [quick, slow, wait] = delegateResults(fx.runtime);
    const quickId = taskIdIn(quick.result!);
    const slowId = taskIdIn(slow.result!);
    expect(wait.status).toBe('error');
    const report = JSON.parse(wait.result!);
    expect(Object.keys(report)).toEqual(['status', 'completed', 'pending', 'missing', 'failed', 'results', 'error']);
    expect(report).toMatchObject({
      status: 'timeout',
      completed: [quickId],
      pending: [slowId],
      missing: [missing],
      failed: [],
      error: AWAIT_PENDING,
    });
    expect(report.results[quickId]).toMatchObject({ status: 'completed', output: 'quick answer' });
    expect(report.results[slowId]).toMatchObject({ status: 'running', output: null });
    expect(report.results[slowId].progress).toMatchObject({ iterations: 1, tools_completed: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('completes as soon as every task ends; a timeout_ms over the cap waits the cap, not an error', async () => {
    expect(awaitTimeoutMs(undefined)).toBe(30_000);
    expect(awaitTimeoutMs(500_000)).toBe(120_000);
    expect(awaitTimeoutMs(-1)).toBeUndefined();
    fx = await delegateFixture({
      config: (url) => toml(url, CONFIG),
      agents: {
        main: mainScript(
          () => call({ agent: 'worker', prompt: 'p', background: true }, 'a'),
          (prev) => call({ action: 'await_sessions', task_ids: [taskIdIn(prev)], timeout_ms: 10_000_000 }, 'w'),
        ),
        worker: () => text('finished', 300),
      },
    });
    const started = Date.now();
    await fx.runtime.startTurn('go');
    const [launch, wait] = delegateResults(fx.runtime);
    const id = taskIdIn(launch.result!);
    expect(wait.status).toBe('ok');
    const report = JSON.parse(wait.result!);
    expect(report).toMatchObject({ status: 'complete', completed: [id], pending: [], missing: [], failed: [] });
    expect(report.error).toBeUndefined();
    expect(report.results[id].output).toBe('finished');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('duplicate task ids are rejected, whatever their case', async () => {
    const id = '55555555-5555-4555-8555-555555555555';
    fx = await delegateFixture({
      config: (url) => toml(url, CONFIG),
      agents: { main: mainScript(() => call({ action: 'await_sessions', task_ids: [id, id.toUpperCase()] }, 'w')) },
    });
    await fx.runtime.startTurn('go');
    expect(delegateResults(fx.runtime)[0].result).toBe(`Duplicate task_id '${id}' in task_ids; list each task once.`);
    expect(delegateResults(fx.runtime)[0].result).toBe(duplicateTaskId(id));
  });
});

describe('restart', () => {
  it('a task that was running when its arbor died reads back as lost', async () => {
    const home = testHome();
    // A pid that certainly belonged to a process that is gone.
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const id = '66666666-6666-4666-8666-666666666666';
    const then = new Date(Date.now() - 5_000).toISOString();
    record(new TaskStore(home), { task_id: id, status: 'running', output: null, finished_at: null, heartbeat_at: then, pid: dead });
    fx = await delegateFixture({
      home,
      config: (url) => toml(url, CONFIG),
      agents: { main: mainScript(() => call({ action: 'check_result', task_id: id }, 'c')) },
    });
    await fx.runtime.startTurn('go');
    const view = JSON.parse(delegateResults(fx.runtime)[0].result!);
    expect(view.status).toBe('lost');
    expect(view.finished_at).toBe(then);
    expect(view.error).toBeTruthy();
  });
});

describe('stopping the turn', () => {
  it('kills a foreground child but not a background one, which finishes and is announced', async () => {
    let releaseBg!: () => void;
    const bgGate = new Promise<void>((r) => (releaseBg = r));
    const config = CONFIG + trusted('fg', 'runtime_profile = "agentic"');
    fx = await delegateFixture({
      config: (url) => toml(url, config),
      agents: {
        main: sequence(
          delegations(
            [
              { agent: 'worker', prompt: 'background work', background: true },
              { agent: 'fg', prompt: 'foreground work' },
            ],
            ['bg', 'fg'],
          ),
          text('should not be asked'),
        ),
        worker: async () => {
          await bgGate;
          return text('background result');
        },
        fg: () => ({ kind: 'hang' }),
      },
    });
    const runs = await interruptOnceAsked(['fg', 'worker'], 'both children asked');
    const fgRun = runs.find((r) => r.alias === 'fg')!;
    const bgRun = runs.find((r) => r.kind === 'background')!;
    expect(fgRun.status).toBe('cancelled');
    expect(runs.find((r) => r.kind === 'root')!.status).toBe('cancelled');
    expect(bgRun.status).toBe('running');

    releaseBg();
    const id = bgRun.taskId!;
    const store = new TaskStore(fx.home);
    await until(() => store.get(id)?.status === 'completed', 5000, 'background completed');
    expect(store.get(id)!.output).toBe('background result');
    expect(fx.runtime.store.getState().runs.get(bgRun.id)!.status).toBe('completed');
  });

  it('reaches foreground and parallel children at every depth', async () => {
    const config =
      trusted('main') + trusted('lead', 'runtime_profile = "agentic"') + trusted('x', 'runtime_profile = "agentic"') + trusted('y');
    fx = await delegateFixture({
      config: (url) => toml(url, config),
      agents: {
        main: (req, nth) => (nth === 0 ? call({ agent: 'lead', prompt: 'lead it' }, 'm') : text('unexpected')),
        lead: (req, nth) => (nth === 0 ? call({ parallel: ['x', 'y'], prompt: 'fan out' }, 'l') : text('unexpected')),
        x: () => ({ kind: 'hang' }),
        y: () => ({ kind: 'hang' }),
      },
    });
    const runs = await interruptOnceAsked(['x', 'y'], 'grandchildren asked');
    expect(runs.map((r) => `${r.alias}:${r.status}`).sort()).toEqual(['lead:cancelled', 'main:cancelled', 'x:cancelled', 'y:cancelled']);
    for (const rec of fx.server.requests) expect(await rec.ended).not.toBe('pending');
  });
});
