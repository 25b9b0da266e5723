import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { CTRL_C, CTRL_D, DOWN, ENTER, TAB, UP, mount, waitFor, type Mounted } from './harness.js';
import { settle, settled } from './settle.js';
import { resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

/** The app after each of `messages` was sent as a turn that has ended: its input history. */
async function withHistory(...messages: string[]): Promise<Mounted> {
  const app = await mount();
  for (const message of messages) {
    await app.submit(message);
    await settle(() => app.runtime.endTurn());
  }
  return app;
}

describe('input line', () => {
  it('↑ and ↓ walk through sent messages and back to the draft', async () => {
    const app = await withHistory('first message', 'second message');
    await app.type('draft');
    await app.press(UP);
    await waitFor(() => expect(app.frame()).toContain('› second message\n'));
    await app.press(UP);
    await waitFor(() => expect(app.frame()).toMatch(/› first message\s*\n[^\n]*main ·/));
    await app.press(DOWN);
    await app.press(DOWN);
    await waitFor(() => expect(app.frame()).toMatch(/› draft\s*\n[^\n]*main ·/));
    // A recalled message is sent as is.
    await app.press(UP);
    await app.press(ENTER);
    expect(app.runtime.calls.startTurn).toEqual(['first message', 'second message', 'second message']);
  });

  it.each([
    [
      'keeps a multi-line paste as one message, sent on Enter',
      'line one\rline two\r\nline three\nline four',
      '4 lines, Enter sends them as one message',
      'line one\nline two\nline three\nline four',
    ],
    ['a paste ending in a line break is still one message', 'alpha\rbeta\r', '2 lines, Enter sends them as one message', 'alpha\nbeta'],
  ] as const)('%s', async (_name, pasted, hint, message) => {
    const app = await mount();
    await app.type(pasted);
    expect(app.runtime.calls.startTurn).toEqual([]);
    await waitFor(() => expect(app.frame()).toContain(hint));
    await app.press(ENTER);
    expect(app.runtime.calls.startTurn).toEqual([message]);
  });

  it.each([
    ['en', '3 lines, Enter sends them as one message', '4 lines'],
    ['es', '3 líneas, Intro las envía como un solo mensaje', '4 líneas'],
  ] as const)('a 3-line paste ending in a line break says 3 lines, the lines it sends (%s)', async (lang, three, four) => {
    setLanguage(lang);
    const app = await mount();
    await app.type('alpha\rbeta\rgamma\r');
    await waitFor(() => expect(app.frame()).toContain(three));
    expect(app.frame()).not.toContain(four);
    await app.press(ENTER);
    expect(app.runtime.calls.startTurn).toEqual(['alpha\nbeta\ngamma']);
  });

  it.each<[string, (app: Mounted) => Promise<void>, string[]]>([
    ['a single line arriving with its Enter in one chunk is sent', (app) => app.type('quick\r'), ['quick']],
    [
      'types key by key and sends on Enter',
      async (app) => {
        await app.typeKeys('hey');
        await app.press(ENTER);
      },
      ['hey'],
    ],
    ['does not send an empty line', (app) => app.submit('   '), []],
  ])('%s', async (_name, input, sent) => {
    const app = await mount();
    await input(app);
    expect(app.runtime.calls.startTurn).toEqual(sent);
  });

  it('typing / shows completions; Tab completes the selected one', async () => {
    const app = await mount();
    await app.type('/');
    await waitFor(() => expect(app.frame()).toContain('/help'));
    expect(app.frame()).toContain('/quit');
    await app.type('he');
    await waitFor(() => expect(app.frame()).toMatch(/\/help\s+list commands and key bindings/));
    expect(app.frame()).not.toContain('/quit');
    await app.press(TAB);
    await waitFor(() => expect(app.frame()).toMatch(/› \/help\s*\n/));
    await app.press(ENTER);
    await waitFor(() => expect(app.frame()).toContain('Commands:'));
  });

  it('↓ moves through suggestions before Tab', async () => {
    const app = await mount();
    await app.type('/');
    await app.press(DOWN);
    await app.press(TAB);
    // Alphabetical: clear, help, lang, model, quit, sessions → the second is /help.
    await waitFor(() => expect(app.frame()).toMatch(/› \/help\s*\n/));
  });

  it('Ctrl+D on an empty line quits; on a non-empty line it does nothing', async () => {
    const app = await mount();
    await app.type('keep');
    await app.press(CTRL_D);
    expect(app.exits).toBe(0);
    expect(app.frame()).toMatch(/› keep\s*\n/);
    expect(app.frame()).not.toContain('keepd');
    const empty = await mount();
    await empty.press(CTRL_D);
    expect(empty.exits).toBe(1);
  });

  it('Ctrl+C twice quits when no turn runs; once just warns', async () => {
    const app = await mount();
    await app.press(CTRL_C);
    expect(app.exits).toBe(0);
    await waitFor(() => expect(app.frame()).toContain('Press Ctrl+C again to quit.'));
    await app.press(CTRL_C);
    expect(app.exits).toBe(1);
  });

  it('Ctrl+C with a turn running interrupts it and does not quit', async () => {
    const app = await mount();
    await app.submit('work');
    await app.press(CTRL_C);
    await app.press(CTRL_C);
    expect(app.runtime.calls.interrupt).toBe(2);
    expect(app.exits).toBe(0);
  });

  it('a message starting with // is sent as text starting with /', async () => {
    const app = await mount();
    await app.submit('//usr/bin is a folder');
    expect(app.runtime.calls.startTurn).toEqual(['/usr/bin is a folder']);
  });
});

describe('history and suggestions together', () => {
  it('↑ keeps walking history past a recalled /command', async () => {
    const app = await withHistory('hello');
    await app.submit('/model');
    await app.press(UP);
    await waitFor(() => expect(app.frame()).toMatch(/› \/model\s*\n/));
    await app.press(UP);
    await waitFor(() => expect(app.frame()).toMatch(/› hello\s*\n/));
  });
});

describe('keys that arrive before React catches up', () => {
  it('text typed right after ↑ lands on the recalled line', async () => {
    const app = await withHistory('recalled');
    // Both in the same tick: the new text input has not subscribed yet.
    app.press(UP);
    await app.submit(' more');
    expect(app.runtime.calls.startTurn).toEqual(['recalled', 'recalled more']);
  });

  it('text typed right after Enter starts the next line', async () => {
    const app = await mount();
    await app.type('one');
    app.press(ENTER);
    await app.type('two');
    await waitFor(() => expect(app.frame()).toMatch(/› two\s*\n/));
    expect(app.runtime.calls.startTurn).toEqual(['one']);
  });
});

describe('fast typing', () => {
  it('keeps every key when keys come faster than React re-renders', async () => {
    const app = await mount();
    for (const ch of 'hello there') {
      await app.typeKeysFast(ch);
    }
    await app.typeKeysFast('\u007f\u007f');
    await settled();
    // The cursor ends up at the end of the line, so the next key lands there.
    await app.typeKeys('!');
    await app.press(ENTER);
    expect(app.runtime.calls.startTurn).toEqual(['hello the!']);
  });
});

describe('tall paste', () => {
  it('shows the end of a long paste within a few rows and says how much is above', async () => {
    const app = await mount();
    await app.type(Array.from({ length: 30 }, (_, i) => `pasted ${i}`).join('\r'));
    const frame = app.frame();
    expect(frame).toContain('pasted 29');
    expect(frame).not.toContain('pasted 0\n');
    expect(frame).toMatch(/… \d+ more lines above/);
    expect(frame).toContain('30 lines, Enter sends them as one message');
    expect(frame.split('\n').length).toBeLessThan(24);
  });
});
