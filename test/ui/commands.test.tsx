import { describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { currentLanguage, setLanguage } from '../../src/i18n/index.js';
import { CommandRegistry, runSlashLine, type CommandContext, type SlashCommand } from '../../src/ui/commands/registry.js';
import { builtinCommands } from '../../src/ui/commands/index.js';
import { FakeRuntime } from './fakeRuntime.js';
import { mount, waitFor } from './harness.js';
import { resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

async function run(line: string, options: Parameters<typeof mount>[0] = {}) {
  const app = await mount(options);
  await app.submit(line);
  return app;
}

describe('slash commands', () => {
  it('/help lists every command and the key bindings', async () => {
    const app = await run('/help');
    await waitFor(() => expect(app.frame()).toContain('Commands:'));
    const frame = app.frame();
    for (const name of ['/help', '/clear', '/model', '/sessions', '/lang en|es', '/quit']) expect(frame).toContain(name);
    expect(frame).toContain('Keys:');
    expect(frame).toMatch(/Esc\s+interrupt the running turn/);
    expect(frame).toMatch(/Ctrl\+D\s+quit, on an empty input line/);
    expect(frame).toMatch(/Tab\s+complete a \/ command/);
    // Commands are local: nothing went to the model.
    expect(app.runtime.calls.startTurn).toEqual([]);
  });

  it('an unknown command gets a localized error line, not a crash', async () => {
    const app = await run('/foo bar');
    await waitFor(() => expect(app.frame()).toContain('Unknown command "/foo". Type /help for the list.'));
    await app.submit('/lang es');
    await app.submit('/foo');
    await waitFor(() => expect(app.frame()).toContain('Comando desconocido "/foo". Escribe /help para ver la lista.'));
  });

  it('bad arguments name the usage', async () => {
    const app = await run('/lang en es');
    await waitFor(() => expect(app.frame()).toContain('Bad arguments for /lang. Usage: /lang en|es'));
    await app.submit('/lang fr');
    await waitFor(() => expect(app.frame()).toContain('Unsupported language "fr". Available: en, es.'));
    await app.submit('/quit now');
    await waitFor(() => expect(app.frame()).toContain('Bad arguments for /quit. Usage: /quit'));
    expect(app.exits).toBe(0);
  });

  it('/lang es switches visible strings to Spanish, live', async () => {
    const app = await mount();
    expect(app.frame()).toContain('Type a message, / for commands');
    await app.submit('/lang es');
    await waitFor(() => expect(app.frame()).toContain('Idioma cambiado a español.'));
    expect(currentLanguage()).toBe('es');
    expect(app.frame()).toContain('Escribe un mensaje, / para comandos');
    expect(app.frame()).toContain('0 entrada / 0 salida');
    await app.submit('hola');
    await waitFor(() => expect(app.frame()).toContain('trabajando'));
    expect(app.frame()).toContain('Esc para interrumpir');
    app.runtime.endTurn();
    await app.submit('/lang');
    await waitFor(() => expect(app.frame()).toContain('Idioma: español.'));
  });

  it('/model shows the agent, provider and model, and where it came from', async () => {
    const runtime = new FakeRuntime({ providerName: 'openai', providerLabel: 'openai/gpt-4.1-mini', autoDetectedFrom: 'OPENAI_API_KEY' });
    const app = await run('/model', { runtime });
    await waitFor(() => expect(app.frame()).toContain('Agent: main'));
    expect(app.frame()).toContain('Provider: openai');
    expect(app.frame()).toContain('Model: openai/gpt-4.1-mini');
    expect(app.frame()).toContain('because OPENAI_API_KEY is set');
  });

  it('/sessions lists recent sessions newest first and says how to resume', async () => {
    const sessions = [
      { id: 'old1', createdAt: '2024-01-01T10:00:00Z', firstUserMessage: 'how do I bake bread', items: 4 },
      { id: 'current', createdAt: '2024-03-01T10:00:00Z', items: 0 },
      { id: 'mid22', createdAt: '2024-02-01T10:00:00Z', firstUserMessage: 'fix my\nregex', items: 1 },
    ];
    const app = await run('/sessions', { sessions });
    await waitFor(() => expect(app.frame()).toContain('Recent sessions:'));
    const frame = app.frame();
    expect(frame.indexOf('current')).toBeLessThan(frame.indexOf('mid22'));
    expect(frame.indexOf('mid22')).toBeLessThan(frame.indexOf('old1'));
    expect(frame).toMatch(/old1 {2}2024-01-01 \d\d:\d\d {2}4 items {2}"how do I bake bread"/);
    expect(frame).toContain('1 item  "fix my regex"');
    expect(frame).toMatch(/current .*\(no message\) {2}\(this session\)/);
    expect(frame).toContain('Resume one with: arbor --resume <id>');
  });

  it('/sessions <prefix> matching nothing says so, not that there are none (en and es)', async () => {
    const sessions = [{ id: 'old1', createdAt: '2024-01-01T10:00:00Z', firstUserMessage: 'bread', items: 4 }];
    const app = await run('/sessions nosuch', { sessions });
    await waitFor(() => expect(app.frame()).toContain('No saved session id starts with "nosuch"; /sessions lists them all.'));
    expect(app.frame()).not.toContain('No saved sessions yet.');
    cleanup();
    setLanguage('es');
    const es = await run('/sessions nosuch', { sessions });
    await waitFor(() => expect(es.frame()).toContain('Ningún id de sesión guardada empieza por "nosuch"'));
  });

  it('/sessions with none saved says so', async () => {
    const app = await run('/sessions');
    await waitFor(() => expect(app.frame()).toContain('No saved sessions yet.'));
  });

  it('/clear clears the runtime transcript and the screen, but not while a turn runs', async () => {
    const app = await mount();
    await app.submit('remember me');
    await app.submit('/clear');
    await waitFor(() => expect(app.frame()).toContain('/clear cannot run while a turn is running'));
    expect(app.runtime.calls.clear).toBe(0);
    app.runtime.endTurn();
    await app.submit('/clear');
    await waitFor(() => expect(app.frame()).toContain('Conversation cleared.'));
    expect(app.runtime.calls.clear).toBe(1);
    expect(app.writes().some((w) => w.startsWith('\u001B[2J\u001B[3J\u001B[H'))).toBe(true);
    // The test renderer keeps what was printed before the clear; what matters is that the
    // cleared conversation is not printed again after it.
    expect(app.frame().split('remember me').length - 1).toBe(1);
  });

  it('/quit exits', async () => {
    const app = await run('/quit');
    expect(app.exits).toBe(1);
  });

  it('a command that throws becomes an error line', async () => {
    const boom: SlashCommand = {
      name: 'boom',
      summary: 'ui:commands.quit.summary',
      run() {
        throw new Error('kaput');
      },
    };
    const app = await run('/boom', { props: { commands: [boom] } });
    await waitFor(() => expect(app.frame()).toContain('/boom failed: kaput'));
  });
});

describe('command registry', () => {
  it('completes by prefix and rejects bad or duplicate names', () => {
    const reg = new CommandRegistry(builtinCommands());
    expect(reg.complete('s').map((c) => c.name)).toEqual(['sessions']);
    expect(reg.complete('').length).toBe(7);
    expect(() => reg.register({ ...builtinCommands()[0] })).toThrow(/registered twice/);
    expect(() => reg.register({ name: 'Bad Name', summary: 'ui:commands.quit.summary', run() {} })).toThrow(/lowercase/);
  });

  it('runSlashLine never throws, even for a rejected promise', async () => {
    const lines: string[] = [];
    const ctx = { print: (text: string) => lines.push(text), isTurnRunning: () => false } as unknown as CommandContext;
    const reg = new CommandRegistry([
      { name: 'async', summary: 'ui:commands.quit.summary', run: async () => Promise.reject(new Error('later')) },
    ]);
    await runSlashLine('/async', reg, ctx);
    await runSlashLine('/', reg, ctx);
    expect(lines).toEqual(['/async failed: later', 'Unknown command "/". Type /help for the list.']);
  });
});
