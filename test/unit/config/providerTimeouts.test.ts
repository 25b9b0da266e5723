// The two provider timeouts are config keys like any other: defaulted, validated with the
// key path, and warned about when misspelled.
import { beforeAll, describe, expect, it } from 'vitest';
import { providerTimeouts } from '../../../src/config/defaults.js';
import { setLanguage } from '../../../src/i18n/index.js';
import { BASE, FILE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

const prov = (line: string): string => BASE.replace('[agents.main]', `${line}\n[agents.main]`);

describe('first_byte_timeout_secs and idle_timeout_secs', () => {
  it('default to 60 s and 120 s', () => {
    const { config } = load(BASE);
    expect(providerTimeouts(config.providers.local)).toEqual({ firstByteSecs: 60, idleSecs: 120 });
  });

  it('timeout_secs sets both; each key overrides it', () => {
    expect(providerTimeouts(load(prov('timeout_secs = 30')).config.providers.local)).toEqual({ firstByteSecs: 30, idleSecs: 30 });
    const both = load(prov('timeout_secs = 30\nidle_timeout_secs = 300\nfirst_byte_timeout_secs = 2.5')).config.providers.local;
    expect(both).toMatchObject({ first_byte_timeout_secs: 2.5, idle_timeout_secs: 300 });
    expect(providerTimeouts(both)).toEqual({ firstByteSecs: 2.5, idleSecs: 300 });
  });

  it.each([
    ['first_byte_timeout_secs = 0', 'providers.local.first_byte_timeout_secs', 'must be greater than 0, got 0'],
    ['idle_timeout_secs = -1', 'providers.local.idle_timeout_secs', 'must be greater than 0, got -1'],
  ])('%s is rejected at its key', (line, keyPath, problem) => {
    const err = loadError(prov(line));
    expect(err.message).toBe(`${FILE}: ${keyPath}: ${problem}`);
  });

  it('a string is rejected naming the key', () => {
    const err = loadError(prov('idle_timeout_secs = "soon"'));
    expect(err.keyPath).toBe('providers.local.idle_timeout_secs');
  });

  it('are known keys: no unknown-key warning', () => {
    const { warnings } = load(prov('first_byte_timeout_secs = 5\nidle_timeout_secs = 5'));
    expect(warnings).toEqual([]);
  });
});
