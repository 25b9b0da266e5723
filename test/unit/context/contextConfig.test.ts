// The config keys of project context: `[context] max_kb` and an agent's `context`.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { BASE, FILE, load, loadError } from '../config/helpers.js';

beforeAll(() => setLanguage('en'));

function expectError(text: string, keyPath: string, problem: string): void {
  const err = loadError(text);
  expect(err.message).toBe(`${FILE}: ${keyPath}: ${problem}`);
  expect(err.keyPath).toBe(keyPath);
}

describe('[context] and agents.<alias>.context', () => {
  it('are absent from the config unless written (defaults: 32 KiB, every agent reads it)', () => {
    const { config, warnings } = load(BASE);
    expect(config.context).toBeUndefined();
    expect(config.agents.main.context).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('are read as written', () => {
    const { config, warnings } = load(`[context]\nmax_kb = 8\n${BASE}context = false\n`);
    expect(config.context).toEqual({ max_kb: 8 });
    expect(config.agents.main.context).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('bad values name the key path and the problem', () => {
    expectError(`[context]\nmax_kb = -1\n${BASE}`, 'context.max_kb', 'must be between 0 and 1024, got -1');
    expectError(`[context]\nmax_kb = 2048\n${BASE}`, 'context.max_kb', 'must be between 0 and 1024, got 2048');
    expectError(`[context]\nmax_kb = 1.5\n${BASE}`, 'context.max_kb', 'expected an integer, got number 1.5');
    expectError(`[context]\nmax_kb = "big"\n${BASE}`, 'context.max_kb', 'expected an integer, got string "big"');
    expectError(`context = 3\n${BASE}`, 'context', 'expected a table, got number 3');
    expectError(`${BASE}context = "no"\n`, 'agents.main.context', 'expected a boolean (true or false), got string "no"');
  });

  it('an unknown key under [context] is a warning, as elsewhere', () => {
    const { warnings } = load(`[context]\nmax_kbs = 8\n${BASE}`);
    expect(warnings).toEqual([`unknown key "max_kbs" at context.max_kbs in ${FILE}; did you mean "max_kb"?`]);
  });
});
