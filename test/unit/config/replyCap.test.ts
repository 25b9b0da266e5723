// max_reply_kb: a runtime-profile key, defaulted, validated with its key path.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_REPLY_KB, replyCapBytes } from '../../../src/config/defaults.js';
import { setLanguage } from '../../../src/i18n/index.js';
import { BASE, FILE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

describe('[runtime_profiles.*] max_reply_kb', () => {
  it('defaults to 1024 KiB and is read in KiB', () => {
    expect(DEFAULT_MAX_REPLY_KB).toBe(1024);
    expect(replyCapBytes(load(BASE).config.runtime_profiles.default)).toBe(1024 * 1024);
    const { config, warnings } = load(`${BASE}[runtime_profiles.default]\nmax_reply_kb = 256\n`);
    expect(config.runtime_profiles.default.max_reply_kb).toBe(256);
    expect(replyCapBytes(config.runtime_profiles.default)).toBe(256 * 1024);
    expect(warnings).toEqual([]);
  });

  it.each([
    ['max_reply_kb = 0', 'must be between 1 and 1048576, got 0'],
    ['max_reply_kb = 1.5', 'expected an integer, got number 1.5'],
  ])('%s is rejected at its key', (line, problem) => {
    const err = loadError(`${BASE}[runtime_profiles.default]\n${line}\n`);
    expect(err.keyPath).toBe('runtime_profiles.default.max_reply_kb');
    expect(err.message.startsWith(`${FILE}: runtime_profiles.default.max_reply_kb: `)).toBe(true);
    expect(err.message).toContain(problem.split(',')[0]);
  });
});
