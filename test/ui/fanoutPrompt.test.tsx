// The fan-out confirmation prompt in the chat: what it shows and how its keys answer.
import { describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { setLanguage } from '../../src/i18n/index.js';
import type { PendingFanout, PlannedChild } from '../../src/model/controls.js';
import { FakeRuntime } from './fakeRuntime.js';
import { ENTER, ESC, expectAll, mount, waitFor } from './harness.js';
import { resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

class FanoutRuntime extends FakeRuntime {
  readonly fanoutAnswers: Array<[string, number]> = [];
  answerFanout(id: string, count: number): void {
    this.fanoutAnswers.push([id, count]);
    this.store.setState((s) => ({ controls: { ...s.controls, fanouts: (s.controls.fanouts ?? []).filter((f) => f.id !== id) } }));
  }
}

let seq = 0;
const child = (callId: string, agent: string, task: string, costUsd?: number): PlannedChild => ({
  callId,
  tool: 'spawn_subagent',
  agent,
  model: 'openai-compatible/fake-model',
  task,
  inputTokens: 1200,
  costUsd,
});

async function withFanout(children: PlannedChild[], estimatedUsd: number | undefined, unpriced = 0, title = 'Fan-out') {
  const runtime = new FanoutRuntime();
  const app = await mount({ runtime });
  await app.submit('go wide');
  const fanout: PendingFanout = {
    id: `f${++seq}`,
    runId: runtime.runId!,
    limit: 2,
    children,
    estimatedUsd,
    unpriced,
    createdAt: Date.now(),
  };
  runtime.store.setState((s) => ({ controls: { ...s.controls, fanouts: [fanout] } }));
  await waitFor(() => expect(app.frame()).toContain(title));
  return { app, runtime, fanout };
}

const four = () => [
  child('c1', 'main', 'survey the docs', 0.0036),
  child('c2', 'main', 'survey the tests', 0.0036),
  child('c3', 'main', 'survey the code', 0.0036),
  child('c4', 'main', 'survey the build', 0.0036),
];

describe('fan-out prompt', () => {
  it('the free offline model is $0.00, not unknown, in English and Spanish (#20 wording)', async () => {
    const offline = (id: string) => ({ ...child(id, 'main', 'x', 0), model: 'offline/arbor-offline' });
    const { app } = await withFanout([offline('c1'), offline('c2')], 0);
    expect(app.frame()).toContain('Estimated prompt cost: $0.00 (input of each first call)');
    cleanup();
    setLanguage('es');
    const es = await withFanout([offline('c1'), offline('c2')], 0, 0, 'Coste estimado');
    expect(es.app.frame()).toContain('Coste estimado de los prompts: $0.00');
  });

  it('shows who asks, each planned child with its model and estimate, the total and the keys', async () => {
    const { app } = await withFanout(four(), 0.0144);
    const frame = app.frame();
    expectAll(frame, [
      'main wants to start 4 children (more than confirm_fanout_over = 2)',
      '1. main · openai-compatible/fake-model · ~1.2k tok · $0.0036  survey the docs',
      '4. main · openai-compatible/fake-model · ~1.2k tok · $0.0036  survey the build',
      'Estimated prompt cost: $0.0144 (input of each first call)',
      'Start 4 of 4',
      'Enter start · a/y start all · -/+ or digits: change the count · n/Esc deny all',
    ]);
  });

  it('unpriced models read unknown', async () => {
    const { app } = await withFanout([child('c1', 'main', 'a'), child('c2', 'main', 'b'), child('c3', 'main', 'c', 0.001)], 0.001, 2);
    expect(app.frame()).toContain('~1.2k tok · unknown  a');
    expect(app.frame()).toContain('Estimated prompt cost: $0.0010 (input of each first call); 2 unpriced: unknown');
  });

  it('Enter approves all by default', async () => {
    const { app, runtime, fanout } = await withFanout(four(), 0.0144);
    await app.press(ENTER);
    expect(runtime.fanoutAnswers).toEqual([[fanout.id, 4]]);
    await waitFor(() => expect(app.frame()).not.toContain('Fan-out'));
    // the key was not typed into the input line, and no turn was sent
    expect(runtime.calls.startTurn).toEqual(['go wide']);
  });

  it('- lowers the count; Enter starts that many', async () => {
    const { app, runtime, fanout } = await withFanout(four(), 0.0144);
    await app.press('-');
    await app.press('-');
    await waitFor(() => expect(app.frame()).toContain('Start 2 of 4'));
    await app.press(ENTER);
    expect(runtime.fanoutAnswers).toEqual([[fanout.id, 2]]);
  });

  it('a digit sets the count; + raises it again', async () => {
    const { app, runtime, fanout } = await withFanout(four(), 0.0144);
    await app.press('1');
    await waitFor(() => expect(app.frame()).toContain('Start 1 of 4'));
    await app.press('+');
    await waitFor(() => expect(app.frame()).toContain('Start 2 of 4'));
    await app.press(ENTER);
    expect(runtime.fanoutAnswers).toEqual([[fanout.id, 2]]);
  });

  for (const [key, name] of [
    ['n', 'n'],
    [ESC, 'Esc'],
  ] as const) {
    it(`${name} denies all (and does not interrupt the turn)`, async () => {
      const { app, runtime, fanout } = await withFanout(four(), 0.0144);
      await app.press(key);
      await waitFor(() => expect(runtime.fanoutAnswers).toEqual([[fanout.id, 0]]));
      expect(runtime.calls.interrupt).toBe(0);
    });
  }

  it('a parallel delegate call that crosses the count is started whole or not at all', async () => {
    const kids = [
      child('c1', 'main', 'solo'),
      { ...child('d1', 'a', 'pair'), tool: 'delegate' as const },
      { ...child('d1', 'b', 'pair'), tool: 'delegate' as const },
    ];
    const { app, runtime, fanout } = await withFanout(kids, undefined, 3);
    expect(app.frame()).toContain('Estimated prompt cost: unknown (no pricing for these models)');
    await app.press('2');
    await waitFor(() => expect(app.frame()).toContain('Start 1 of 3 (a parallel delegate call starts whole or not at all)'));
    await app.press('a');
    expect(runtime.fanoutAnswers).toEqual([[fanout.id, 3]]);
  });
});
