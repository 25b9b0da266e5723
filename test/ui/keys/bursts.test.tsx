// Keys that reach the chat in one read act one by one: the bursts of issue 11 written to
// the app's stdin in ONE write each, and the line editor, approval list and / menu.
import { builtinCommands } from '../../../src/ui/commands/index.js';
import React from 'react';
import { describe, expect, it } from 'vitest';
import { addRun } from '../../../src/runtime/store.js';
import { agentsCommands, agentsKeyBindings } from '../../../src/ui/agents/register.js';
import { AgentsPane } from '../../../src/ui/agents/AgentsPane.js';
import { KeyTable, KeyTableContext } from '../../../src/ui/keys/keyTable.js';
import { PASTE_END, PASTE_START } from '../../../src/ui/keys/tokenizer.js';
import { makeRun } from '../../helpers/runs.js';
import { CTRL_C, ENTER, ESC, KEYS, mount, UP, waitFor } from '../harness.js';
import { renderSettled, settle } from '../settle.js';
import { resetUiBetweenTests } from '../lifecycle.js';

resetUiBetweenTests();

const { BS, CTRL_A, CTRL_D, CTRL_K, CTRL_U, CTRL_W, CTRL_Y } = KEYS;

async function sent(keys: string): Promise<string[]> {
  const app = await mount();
  await app.submit(keys);
  return app.runtime.calls.startTurn;
}

describe('bursts in one read', () => {
  it('three Backspaces erase three characters', async () => {
    expect(await sent(`abcdef${BS}${BS}${BS}`)).toEqual(['abc']);
  });

  it('Ctrl+A then typing edits at the start; Ctrl+D deletes forward on a non-empty line', async () => {
    expect(await sent(`abc${CTRL_A}zy`)).toEqual(['zyabc']);
    expect(await sent(`abc${CTRL_A}${CTRL_D}zy`)).toEqual(['zybc']);
  });

  it('the cursor is drawn where the next key lands', async () => {
    const app = await mount();
    await app.type(`abc${CTRL_A}zy`);
    await waitFor(() => expect(app.frame()).toMatch(/› zyabc\s*\n/));
    // ← then Backspace: the cursor was after "zy", so the "z" goes.
    await app.submit(`\x1b[D${BS}`);
    expect(app.runtime.calls.startTurn).toEqual(['yabc']);
  });

  it('Ctrl+C Ctrl+C quits, and the last frame no longer asks for a second Ctrl+C', async () => {
    const app = await mount();
    await app.type(`${CTRL_C}${CTRL_C}`);
    await waitFor(() => expect(app.exits).toBe(1));
    expect(app.frame()).not.toContain('Press Ctrl+C again');
  });

  it('Esc Esc while a reply streams interrupts it and types nothing', async () => {
    const app = await mount();
    await app.submit('go');
    app.runtime.beginAssistant('streaming…');
    await app.type(`${ESC}${ESC}`);
    expect(app.runtime.calls.interrupt).toBeGreaterThan(0);
    await settle(() => app.runtime.endTurn());
    await app.submit('next');
    expect(app.runtime.calls.startTurn).toEqual(['go', 'next']);
  });

  it('Ctrl+T X y opens the pane, asks to kill all and confirms', async () => {
    const app = await mount({
      props: { commands: agentsCommands({ archiveAfterMinutes: 60 }), keyBindings: agentsKeyBindings({ archiveAfterMinutes: 60 }) },
    });
    const root = 'root-1';
    addRun(app.runtime.store, makeRun(root, { status: 'running' }));
    addRun(
      app.runtime.store,
      makeRun('child-1', { parentRunId: root, rootRunId: root, depth: 1, alias: 'worker', kind: 'subagent', status: 'running' }),
    );
    let killed = 0;
    app.runtime.kill = () => {
      killed++;
      return { killed: true, descendants: 0 };
    };
    await app.type('\x14Xy');
    await waitFor(() => expect(app.frame()).toMatch(/Agents ·/));
    await waitFor(() => expect(killed).toBeGreaterThan(0));
    expect(app.frame()).not.toMatch(/› .*Xy/);
  });
});

describe('the line editor', () => {
  it('Ctrl+L redraws the screen and keeps the line', async () => {
    const { mountSized } = await import('../harness.js');
    const { CLEAR_SCREEN } = await import('../../../src/ui/hooks/useChatScreen.js');
    const app = await mountSized(80, 24);
    await app.press('keep me');
    const before = app.stdout.writes.length;
    await app.press('\x0c');
    await waitFor(() => expect(app.stdout.writes.slice(before)).toContain(CLEAR_SCREEN));
    await waitFor(() => expect(app.stdout.last()).toContain('› keep me'));
    app.unmount();
  });

  it('Ctrl+W cuts the word before, Ctrl+Y puts it back, Ctrl+U cuts to the start, Ctrl+K to the end', async () => {
    expect(await sent(`git commit fix${CTRL_W}${CTRL_A}${CTRL_Y}`)).toEqual(['fixgit commit']);
    expect(await sent(`one two${CTRL_U}three`)).toEqual(['three']);
    // Two Ctrl+W in a row are one kill: Ctrl+Y gives both words back.
    expect(await sent(`git commit fix${CTRL_W}${CTRL_W}${CTRL_Y}`)).toEqual(['git commit fix']);
    // A key between kills starts a new buffer.
    expect(await sent(`one two${CTRL_W}x${BS}${CTRL_W}${CTRL_Y}`)).toEqual(['one']);
    expect(await sent(`keep this${CTRL_A}\x1bf${CTRL_K}`)).toEqual(['keep']);
  });

  it('Shift+Enter, Ctrl+J and \\ then Enter break the line; ↑ moves inside the message before history', async () => {
    expect(await sent('one\x1b[13;2utwo')).toEqual(['one\ntwo']);
    const app = await mount();
    await app.submit('first\\');
    await app.type('second');
    await app.press('\n');
    await app.type('third');
    await app.press(UP);
    await app.submit('X');
    expect(app.runtime.calls.startTurn).toEqual(['first\nseconXd\nthird']);
  });

  it('a bracketed paste with Enter and Ctrl+C inside is text: nothing is sent, nothing quits', async () => {
    const app = await mount();
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i}\x03`).join('\r');
    await app.type(`${PASTE_START}${lines}${PASTE_END}`);
    expect(app.runtime.calls.startTurn).toEqual([]);
    expect(app.exits).toBe(0);
    await waitFor(() => expect(app.frame()).toContain('50 lines, Enter sends them as one message'));
    await app.press(ENTER);
    expect(app.runtime.calls.startTurn).toEqual([Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n')]);
  });
});

describe('approval prompt as a list', () => {
  async function withApproval(runId?: string) {
    const app = await mount();
    await app.submit('do it');
    const approval = app.runtime.requestApproval('shell', { command: 'ls' });
    if (runId) {
      app.runtime.store.setState((s) => ({ controls: { ...s.controls, approvals: [{ ...approval, runId }] } }));
    }
    await waitFor(() => expect(app.frame()).toContain('Approval needed'));
    return { app, approval };
  }

  it('Enter takes the highlighted answer: allow once first', async () => {
    const { app, approval } = await withApproval();
    expect(app.frame()).toMatch(/› \[y\] allow once/);
    await app.press(ENTER);
    expect(app.runtime.calls.answerApproval).toEqual([{ id: approval.id, answer: 'allow_once' }]);
    expect(app.runtime.calls.startTurn).toEqual(['do it']);
  });

  it('↓ then Enter allows for the session; ↓↓ Enter denies', async () => {
    const { app, approval } = await withApproval();
    await app.press('\x1b[B');
    await waitFor(() => expect(app.frame()).toMatch(/› \[a\] allow for this session/));
    await app.press(ENTER);
    expect(app.runtime.calls.answerApproval).toEqual([{ id: approval.id, answer: 'allow_session' }]);
  });

  it('names the asking child by its label', async () => {
    const app = await mount();
    await app.submit('do it');
    const root = app.runtime.runId!;
    addRun(
      app.runtime.store,
      makeRun('kid', { parentRunId: root, rootRunId: root, depth: 1, alias: 'researcher', kind: 'subagent', status: 'running' }),
    );
    const approval = app.runtime.requestApproval('write_file', { path: 'x' });
    app.runtime.store.setState((s) => ({ controls: { ...s.controls, approvals: [{ ...approval, runId: 'kid' }] } }));
    await waitFor(() => expect(app.frame()).toContain('researcher#1 wants to use write_file'));
  });

  it('long arguments scroll with PgDn, all of them reachable', async () => {
    const app = await mount();
    await app.submit('do it');
    app.runtime.requestApproval('write_file', { content: Array.from({ length: 60 }, (_, i) => `row ${i}`) });
    await waitFor(() => expect(app.frame()).toContain('Approval needed'));
    expect(app.frame()).not.toContain('row 59');
    for (let i = 0; i < 15; i++) await app.press('\x1b[6~');
    await waitFor(() => expect(app.frame()).toContain('row 59'));
    expect(app.frame()).not.toContain('"row 0"');
  });
});

describe('the / menu and Tab', () => {
  it('says when more commands exist than fit, and ↓ reaches every one', async () => {
    const extra = Array.from({ length: 8 }, (_, i) => ({ name: `zz${i}`, summary: 'ui:commands.quit.summary' as const, run() {} }));
    const app = await mount({ props: { commands: extra } });
    await app.type('/');
    await waitFor(() => expect(app.frame()).toMatch(/… 0 above, \d+ below/));
    // /zz7 comes after every built-in command and zz0..zz6.
    for (let i = 0; i < builtinCommands().length + 7; i++) await app.press('\x1b[B');
    await waitFor(() => expect(app.frame()).toContain('/zz7'));
    await app.press('\t');
    await waitFor(() => expect(app.frame()).toMatch(/› \/zz7\s/));
  });

  it('"/", ↓ and Tab in one read pick the second command', async () => {
    const app = await mount();
    await app.type('/\x1b[B\t');
    await waitFor(() => expect(app.frame()).toMatch(/› \/help\s*\n/));
  });

  it('Tab completes the argument of /lang: the first lists the choices, ↓ and Tab take one', async () => {
    const app = await mount();
    await app.type('/lang e');
    await app.press('\t');
    await waitFor(() => expect(app.frame()).toMatch(/^\s+en\s*$/m));
    expect(app.frame()).toMatch(/^\s+es\s*$/m);
    await app.press('\x1b[B');
    await app.press('\t');
    await waitFor(() => expect(app.frame()).toMatch(/› \/lang es\s*\n/));
    await app.press(ENTER);
    await waitFor(() => expect(app.frame()).toContain('Idioma cambiado'));
  });

  it('Tab completes the provider argument of /model', async () => {
    const app = await mount();
    Object.assign(app.runtime, {
      models: () => [
        { provider: 'local', label: 'openai-compatible/qwen3:8b', current: true },
        { provider: 'cloud', label: 'openai/gpt-4.1-mini', current: false },
      ],
      setModel: () => undefined,
    });
    await app.type('/model c');
    await app.press('\t');
    await waitFor(() => expect(app.frame()).toMatch(/› \/model cloud\s*\n/));
  });

  it('Tab completes /subagents subcommands and run labels, and /sessions ids', async () => {
    const app = await mount({
      props: { commands: agentsCommands({ archiveAfterMinutes: 60 }) },
      sessions: [{ id: 'abc123', createdAt: '2025-01-01T00:00:00Z', items: 2, firstUserMessage: 'hello' }],
    });
    addRun(app.runtime.store, makeRun('root-1', { status: 'running' }));
    addRun(
      app.runtime.store,
      makeRun('kid-1', { parentRunId: 'root-1', rootRunId: 'root-1', depth: 1, alias: 'researcher', kind: 'subagent', status: 'running' }),
    );
    await app.type('/subagents ki');
    await app.press('\t');
    await waitFor(() => expect(app.frame()).toMatch(/› \/subagents kill\s/));
    await app.type('res');
    await app.press('\t');
    await waitFor(() => expect(app.frame()).toMatch(/› \/subagents kill researcher#1\s/));
    await app.type('\x15/sessions a');
    await app.press('\t');
    await waitFor(() => expect(app.frame()).toMatch(/› \/sessions abc123\s/));
  });
});

describe('[keys] overrides', () => {
  it('change the key and the hint together', async () => {
    const keys = new KeyTable({ 'agents.kill': ['d'] });
    const app = await renderSettled(
      <KeyTableContext.Provider value={keys}>
        <AgentsPane runtime={(await mount()).runtime} width={100} maxRows={20} close={() => {}} archiveAfterMinutes={60} />
      </KeyTableContext.Provider>,
    );
    expect(app.lastFrame()).toContain('d kill');
    expect(app.lastFrame()).not.toContain('x kill');
  });
});
