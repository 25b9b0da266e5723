import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { parseConfigText } from '../../../src/config/load.js';
import { formatConfigError } from '../../../src/config/errors.js';
import { FILE, configErrorOf, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

describe('TOML syntax errors', () => {
  it('names file, line and column of a missing value', () => {
    const err = loadError('default_agent = "main"\n\n[ui]\nlanguage = \n');
    expect(err.file).toBe(FILE);
    expect(err.line).toBe(4);
    expect(err.column).toBe(12);
    expect(err.keyPath).toBeUndefined();
    expect(err.message).toBe(`${FILE}:4:12: invalid TOML: invalid value`);
  });

  it('points at an unterminated string on its own line', () => {
    const err = loadError('[providers.local]\ntype = "offline\nmodel = "m"\n');
    expect([err.line, err.column]).toEqual([2, 16]);
    expect(err.message.startsWith(`${FILE}:2:16: invalid TOML: `)).toBe(true);
  });

  it('reports a key defined twice at the second definition', () => {
    const err = loadError('[ui]\nlanguage = "en"\nlanguage = "es"\n');
    expect(err.line).toBe(3);
    expect(err.message).toMatch(new RegExp(`^${FILE.replace(/\./g, '\\.')}:3:\\d+: invalid TOML: `));
  });

  it('rejects prototype-polluting keys as a located error', () => {
    const err = configErrorOf(() => parseConfigText('[agents.__proto__]\nprovider = "x"\n', '/y.toml'));
    expect(err.file).toBe('/y.toml');
    expect(err.line).toBe(1);
  });

  it('accepts a leading byte-order mark', () => {
    expect(parseConfigText('\uFEFFdefault_agent = "main"\n', FILE)).toMatchObject({ default_agent: 'main' });
  });

  it('formatConfigError gives exactly one line', () => {
    const err = loadError('a = [1,\n');
    const text = formatConfigError(err);
    expect(text).not.toContain('\n');
    expect(text).toBe(err.message);
    expect(text.startsWith(`${FILE}:`)).toBe(true);
  });
});
