// The harness itself, against a tiny node program (no arbor needed).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeAllTerminals, startTerminal, type Key } from '../support/terminal.js';
import { tempArborHome, writeConfig } from '../support/tempHome.js';

const fixture = join(import.meta.dirname, 'fixtures', 'keyEcho.mjs');
const start = (cols = 60, rows = 12) => startTerminal({ command: process.execPath, args: [fixture], cols, rows });

afterEach(async () => {
  await disposeAllTerminals();
});

describe('e2e harness', () => {
  it('shows the interpreted screen: colours stripped, overwritten text gone', async () => {
    const term = await start();
    await term.waitForText('ready');
    await term.waitForText('size 60x12');
    const lines = term.screen().split('\n');
    expect(lines[0]).toBe('red bold ready');
    expect(lines[1]).toBe('final');
    expect(term.screen()).not.toContain('draft');
    expect(term.screen()).not.toMatch(/\x1b/);
    expect(lines).toHaveLength(12);
  });

  it('sends keys as the bytes a terminal sends', async () => {
    const term = await start();
    await term.waitForText('ready');
    await term.waitForRawMode(5000);
    const expected: Array<[Key, string]> = [
      ['enter', '0d'],
      ['esc', '1b'],
      ['up', '1b 5b 41'],
      ['ctrl-c', '03'],
      ['ctrl-d', '04'],
      ['backspace', '7f'],
      ['pgdn', '1b 5b 36 7e'],
      ['tab', '09'],
    ];
    for (const [key, hex] of expected) {
      term.press(key);
      await term.waitForText(`got [${hex}]`, 5000);
    }
    term.type('é');
    await term.waitForText('got [c3 a9]', 5000);
  });

  it('reports the exit code and keeps scrolled-off lines in scrollback', async () => {
    const term = await start();
    await term.waitForText('ready');
    term.type('L');
    await term.waitForText('line 60');
    expect(term.screen()).not.toContain('line 1\n');
    expect(term.scrollback()).toContain('line 1\n');
    await term.waitForNoText('ready');
    term.type('q');
    await expect(term.waitForExit(5000)).resolves.toMatchObject({ exitCode: 3 });
    expect(term.hasExited).toBe(true);
  });

  it('waitForRawMode tells a raw-mode program from a line-buffered one', async () => {
    const raw = await start();
    await raw.waitForRawMode(5000);
    const cooked = await startTerminal({ command: '/bin/sh', args: ['-c', 'echo cooked; sleep 10'], cols: 40, rows: 5 });
    await cooked.waitForText('cooked');
    await expect(cooked.waitForRawMode(400)).rejects.toThrow(/raw mode[\s\S]*cooked/);
  });

  it('resizes both the terminal and the program', async () => {
    const term = await start();
    await term.waitForText('ready');
    term.resize(80, 20);
    await term.waitForText('resized 80x20');
    expect(term.screen().split('\n')).toHaveLength(20);
  });

  it('fails a wait with the screen in the message', async () => {
    const term = await start();
    await term.waitForText('ready');
    await expect(term.waitForText('never shown', 300)).rejects.toThrow(/never shown[\s\S]*red bold ready/);
  });

  it('dispose kills a live process', async () => {
    const term = await start();
    await term.waitForText('ready');
    await term.dispose();
    expect(term.hasExited).toBe(true);
    expect(() => process.kill(term.pid, 0)).toThrow();
  });

  it('tempArborHome isolates HOME and API keys, and cleans up', () => {
    const h = tempArborHome();
    try {
      expect(h.env.HOME).not.toBe(process.env.HOME);
      expect(h.env.ARBOR_HOME).toBe(h.home);
      expect(h.env).not.toHaveProperty('OPENAI_API_KEY');
      expect(h.env).not.toHaveProperty('ANTHROPIC_API_KEY');
      const path = writeConfig(h.dir, 'default_agent = "main"\n');
      expect(path).toBe(join(h.dir, '.arbor', 'config.toml'));
      expect(existsSync(path)).toBe(true);
    } finally {
      h.cleanup();
    }
    expect(existsSync(h.dir)).toBe(false);
  });
});
