import { describe, expect, it } from 'vitest';
import { FakeRuntime } from './fakeRuntime.js';
import { ESC, expectAll, mount, waitFor } from './harness.js';
import { resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

async function withApproval(args: unknown = { command: 'rm -rf build', cwd: '/tmp/project' }) {
  const app = await mount();
  await app.submit('clean up');
  app.runtime.addTool('shell', args, 'pending_approval');
  const approval = app.runtime.requestApproval('shell', args);
  await waitFor(() => expect(app.frame()).toContain('Approval needed'));
  return { app, approval };
}

describe('approval prompt', () => {
  it('shows the tool, its arguments as JSON and the three choices', async () => {
    const { app } = await withApproval();
    const frame = app.frame();
    expectAll(frame, [
      'main wants to use shell',
      '"command": "rm -rf build"',
      '"cwd": "/tmp/project"',
      '[y] allow once',
      '[a] allow for this session',
      '[n/Esc] deny',
      '◌ shell rm -rf build (+1)',
    ]);
  });

  for (const [key, answer] of [
    ['y', 'allow_once'],
    ['a', 'allow_session'],
    ['n', 'deny'],
    [ESC, 'deny'],
  ] as const) {
    it(`${key === ESC ? 'Esc' : key} answers ${answer}`, async () => {
      const { app, approval } = await withApproval();
      await app.press(key);
      expect(app.runtime.calls.answerApproval).toEqual([{ id: approval.id, answer }]);
      // Esc here denies; it must not also interrupt the turn.
      expect(app.runtime.calls.interrupt).toBe(0);
      // Keys answer the prompt; they are not typed into the input line.
      expect(app.frame()).not.toMatch(/› [yan]\s*\n/);
    });
  }

  it('a key pressed the instant an approval appears, before its first frame, answers it', async () => {
    const app = await mount();
    await app.submit('clean up');
    const approval = app.runtime.requestApproval('write_file', { path: 'x.txt' });
    // no waiting for the prompt to be drawn: the key is written in the same tick
    await app.press('y');
    await waitFor(() => expect(app.runtime.calls.answerApproval).toEqual([{ id: approval.id, answer: 'allow_once' }]));
    expect(app.frame()).not.toMatch(/› y\s*\n/);
  });

  it('answers once per approval, and the next one in the queue gets its own answer', async () => {
    const { app, approval } = await withApproval();
    await app.press('y');
    await app.press('y');
    expect(app.runtime.calls.answerApproval).toEqual([{ id: approval.id, answer: 'allow_once' }]);
    const next = app.runtime.requestApproval('write_file', { path: 'a.txt' });
    app.runtime.store.setState((s) => ({
      controls: { ...s.controls, approvals: s.controls.approvals.filter((a) => a.id !== approval.id) },
    }));
    await waitFor(() => expect(app.frame()).toContain('main wants to use write_file'));
    await app.press('n');
    expect(app.runtime.calls.answerApproval[1]).toEqual({ id: next.id, answer: 'deny' });
  });

  it('caps long arguments and says how many lines are hidden', async () => {
    const big = { content: Array.from({ length: 60 }, (_, i) => `row ${i}`) };
    const { app } = await withApproval(big);
    expect(app.frame()).toMatch(/… \d+ more lines/);
    expect(app.frame()).not.toContain('row 59');
  });
});

describe('status bar', () => {
  it('shows agent, provider/model, tokens and cost', async () => {
    const app = await mount();
    await app.submit('hi');
    app.runtime.usage(1234, 56, 0.0123);
    app.runtime.endTurn();
    await waitFor(() => expect(app.frame()).toContain('main · openai-compatible/qwen3:8b · 1.2k in / 56 out · ~$0.0123'));
  });

  it('says where an auto-detected provider came from', async () => {
    const runtime = new FakeRuntime({ providerLabel: 'openai/gpt-4.1-mini', autoDetectedFrom: 'OPENAI_API_KEY' });
    const app = await mount({ runtime });
    expect(app.frame()).toContain('openai/gpt-4.1-mini (from OPENAI_API_KEY)');
  });

  it('shows the retry notice while the provider retries', async () => {
    const app = await mount();
    await app.submit('hi');
    app.runtime.store.setState({ retryNotice: 'local: HTTP 429, retrying in 2s (attempt 2 of 5)' });
    await waitFor(() => expect(app.frame()).toContain('↻ local: HTTP 429, retrying in 2s (attempt 2 of 5)'));
    app.runtime.endTurn();
    await waitFor(() => expect(app.frame()).not.toContain('HTTP 429'));
  });

  it('says it is waiting for the user while an approval is pending', async () => {
    const { app } = await withApproval();
    expect(app.frame()).toContain('waiting for your answer');
  });

  it('shows config warnings and initial notices once at start', async () => {
    const runtime = new FakeRuntime({ configWarnings: ['unknown key "ui.colour" in ./.arbor/config.toml'] });
    const app = await mount({
      runtime,
      props: { initialNotices: ['unknown key "ui.colour" in ./.arbor/config.toml', 'resumed session abc'] },
    });
    const frame = app.frame();
    expect(frame.split('unknown key "ui.colour"').length - 1).toBe(1);
    expect(frame).toContain('⚠ unknown key');
    expect(frame).toContain('resumed session abc');
  });
});
