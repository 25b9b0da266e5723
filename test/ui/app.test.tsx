import { describe, expect, it } from 'vitest';
import { FakeRuntime } from './fakeRuntime.js';
import { ENTER, ESC, mount, waitFor } from './harness.js';
import { resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

describe('App: a turn', () => {
  it('sends the typed message through startTurn and shows it', async () => {
    const app = await mount();
    await app.type('hello there');
    expect(app.frame()).toContain('hello there');
    await app.press(ENTER);
    expect(app.runtime.calls.startTurn).toEqual(['hello there']);
    await waitFor(() => expect(app.frame()).toMatch(/› hello there/));
  });

  it('shows streaming text as it arrives, then renders it as markdown when finished', async () => {
    const app = await mount();
    await app.submit('hi');
    const id = app.runtime.beginAssistant('# Plan');
    app.runtime.appendText(id, '\n\n- **first** step\n');
    await waitFor(() => expect(app.frame()).toContain('- **first** step'));
    // Streaming text is shown plain, as typed by the model.
    expect(app.frame()).toContain('# Plan');
    app.runtime.appendText(id, '\n```js\nconst x = 1;\n```\n');
    app.runtime.finishAssistant(id);
    app.runtime.endTurn();
    await waitFor(() => expect(app.frame()).toContain('• first step'));
    const frame = app.frame();
    expect(frame).toContain('Plan');
    expect(frame).not.toContain('# Plan');
    expect(frame).not.toContain('**');
    expect(frame).not.toContain('```');
    expect(frame).toContain('const x = 1;');
  });

  it('shows a spinner with elapsed time while a turn runs, and not after', async () => {
    const app = await mount();
    await app.submit('go');
    await waitFor(() => expect(app.frame()).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working \d+s/));
    expect(app.frame()).toContain('Esc to interrupt');
    const before = app.frame().match(/([⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]) working/)![1];
    await waitFor(() => expect(app.frame().match(/([⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]) working/)![1]).not.toBe(before));
    app.runtime.endTurn();
    await waitFor(() => expect(app.frame()).not.toContain('working'));
  });

  it('counts elapsed time from the run start', async () => {
    const app = await mount();
    await app.submit('go');
    const runId = app.runtime.runId!;
    app.runtime.store.setState((s) => ({ runs: s.runs.with(runId, { ...s.runs.get(runId)!, startedAt: Date.now() - 65_000 }) }));
    await waitFor(() => expect(app.frame()).toContain('working 1m 05s'));
  });

  it('Esc interrupts the running turn; the partial reply is kept and marked', async () => {
    const app = await mount();
    await app.submit('long story');
    const id = app.runtime.beginAssistant('Once upon a time');
    await waitFor(() => expect(app.frame()).toContain('Once upon a time'));
    await app.press(ESC);
    expect(app.runtime.calls.interrupt).toBe(1);
    app.runtime.finishAssistant(id, true);
    app.runtime.endTurn();
    await waitFor(() => expect(app.frame()).toContain('interrupted'));
    expect(app.frame()).toContain('Once upon a time');
  });

  it('Esc with no turn running does not call interrupt', async () => {
    const app = await mount();
    await app.press(ESC);
    expect(app.runtime.calls.interrupt).toBe(0);
  });

  it('shows tool cards: spinner while running, then ✓ with the first result line', async () => {
    const app = await mount();
    await app.submit('list files');
    const tool = app.runtime.addTool('shell', { command: 'ls -la' });
    await waitFor(() => expect(app.frame()).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] shell ls -la/));
    app.runtime.setToolStatus(tool, 'ok', '\nREADME.md\npackage.json');
    const denied = app.runtime.addTool('write_file', { path: '/etc/passwd', content: 'x' }, 'denied');
    expect(denied).toBeTruthy();
    app.runtime.endTurn();
    await waitFor(() => expect(app.frame()).toContain('✓ shell ls -la'));
    expect(app.frame()).toContain('└ README.md');
    expect(app.frame()).not.toContain('package.json');
    expect(app.frame()).toContain('⊘ write_file /etc/passwd (+1)');
    expect(app.frame()).toContain('└ denied');
  });

  it('keeps the live region within the terminal: only the tail of a long reply streams', async () => {
    const app = await mount();
    await app.submit('count');
    const id = app.runtime.beginAssistant('');
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`);
    app.runtime.appendText(id, lines.join('\n'));
    await waitFor(() => expect(app.frame()).toContain('line 200'));
    const frame = app.frame();
    expect(frame).not.toContain('line 1\n');
    expect(frame).toContain('earlier lines appear when the reply finishes');
    // ink-testing-library reports no rows, so the App budgets for 24. The live region is
    // everything after the user's line, which went to scrollback.
    const live = frame.slice(frame.indexOf('› count\n') + '› count\n'.length);
    expect(live.split('\n').length).toBeLessThan(24);
    // ...and uses the room it has rather than a token few lines.
    expect(live.match(/line \d+/g)!.length).toBeGreaterThan(15);
    app.runtime.finishAssistant(id);
    app.runtime.endTurn();
    await waitFor(() => expect(app.frame()).toContain('line 1\n'));
    expect(app.frame()).toContain('line 200');
  });

  it('reports a turn that fails to start as an error line', async () => {
    const runtime = new FakeRuntime();
    runtime.startTurn = async (text: string) => {
      runtime.calls.startTurn.push(text);
      throw new Error('provider "local" is unreachable');
    };
    const app = await mount({ runtime });
    await app.submit('hi');
    await waitFor(() => expect(app.frame()).toContain('The turn failed: provider "local" is unreachable'));
  });
});
