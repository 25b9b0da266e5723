// The pane and commands wired into the real App through its extension points, the way
// the CLI mounts them.
import { describe, expect, it } from 'vitest';
import { addTestRun, mountApp, KEYS, FakeRuntime, waitFor } from './fixtures.js';
import { resetUiBetweenTests } from '../lifecycle.js';

resetUiBetweenTests();

describe('/agents and Ctrl+T in the chat', () => {
  it('/agents opens the pane in place of the input; Esc closes it; Ctrl+T opens and closes it', async () => {
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'go' });
    addTestRun(rt, { parent: root.id, alias: 'researcher', kind: 'delegate', task: 'dig in' });
    const app = await mountApp(rt);
    expect(app.frame()).toContain('Type a message');
    await app.press('/agents');
    await app.press(KEYS.ENTER);
    await waitFor(() => expect(app.frame()).toContain('researcher#1 delegate'));
    expect(app.frame()).not.toContain('Type a message');
    expect(app.frame()).toContain('x kill');
    // Esc closes the pane and does not interrupt the turn.
    await app.press(KEYS.ESC);
    await waitFor(() => expect(app.frame()).toContain('Type a message'));
    expect(rt.callsOf('interrupt')).toEqual([]);
    await app.press(KEYS.CTRL_T);
    await waitFor(() => expect(app.frame()).toContain('researcher#1 delegate'));
    await app.press(KEYS.CTRL_T);
    await waitFor(() => expect(app.frame()).toContain('Type a message'));
    expect(app.frame()).not.toContain('researcher#1 delegate');
  });

  it('the pane owns the keyboard: x in the pane kills, it is not typed into the input', async () => {
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'go' });
    const child = addTestRun(rt, { parent: root.id, task: 'work' });
    const app = await mountApp(rt);
    await app.press(KEYS.CTRL_T);
    await waitFor(() => expect(app.frame()).toContain('main#1 subagent'));
    await app.press('j');
    await app.press('x');
    expect(rt.callsOf('kill')).toEqual([[child.id]]);
    await waitFor(() => expect(app.frame()).toContain('killed main#1'));
    await app.press('q');
    await waitFor(() => expect(app.frame()).toContain('Type a message'));
    expect(app.frame()).not.toMatch(/›\s*jx/);
  });

  it('/help lists /agents, /subagents and Ctrl+T', async () => {
    const app = await mountApp(new FakeRuntime());
    await app.press('/help');
    await app.press(KEYS.ENTER);
    await waitFor(() => expect(app.frame()).toContain('Commands:'));
    expect(app.frame()).toContain('/agents');
    expect(app.frame()).toContain('/subagents [list | kill <id|#|all>');
    expect(app.frame()).toMatch(/Ctrl\+T\s+open or close the agents pane/);
  });

  it('/subagents prints through the chat', async () => {
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'go' });
    addTestRun(rt, { parent: root.id, alias: 'researcher', kind: 'delegate', task: 'dig in' });
    const app = await mountApp(rt);
    await app.press('/subagents');
    await app.press(KEYS.ENTER);
    await waitFor(() => expect(app.frame()).toContain('researcher#1 · running'));
  });

  it('keys pressed in the same instant as Enter on /agents reach the pane, not the input line', async () => {
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'go' });
    addTestRun(rt, { parent: root.id, alias: 'researcher', kind: 'delegate', task: 'one' });
    addTestRun(rt, { parent: root.id, alias: 'reviewer', kind: 'delegate', task: 'two' });
    const app = await mountApp(rt);
    await app.press('/agents');
    // Enter and two j's before any re-render: the pane has not subscribed to keys yet.
    app.burst(KEYS.ENTER, 'j', 'j');
    await waitFor(() => expect(app.frame()).toMatch(/· 3\/3$/m));
    await app.press(KEYS.ESC);
    await waitFor(() => expect(app.frame()).toContain('Type a message'));
    expect(app.frame()).not.toMatch(/› j/);
  });
});
