// [delegation] and [agents.<alias>] per-child limits and confirm_fanout_over: accepted,
// defaulted to "none", and refused with the key path when out of range.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { BASE, FILE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

describe('per-child limits and fan-out confirmation', () => {
  it('absent: no limits, no confirmation', () => {
    const { config } = load(BASE);
    expect(config.delegation.max_child_tokens).toBeUndefined();
    expect(config.delegation.confirm_fanout_over).toBeUndefined();
    expect(config.agents.main.max_child_seconds).toBeUndefined();
  });

  it('read from [delegation] and from an agent', () => {
    const { config, warnings } = load(
      `${BASE}max_child_tokens = 900\nmax_child_seconds = 2.5\n[delegation]\nmax_child_tokens = 2000\nmax_child_cost_cents = 12.5\nmax_child_seconds = 30\nconfirm_fanout_over = 3\n`,
    );
    expect(warnings).toEqual([]);
    expect(config.delegation).toMatchObject({
      max_child_tokens: 2000,
      max_child_cost_cents: 12.5,
      max_child_seconds: 30,
      confirm_fanout_over: 3,
    });
    expect(config.agents.main).toMatchObject({ max_child_tokens: 900, max_child_seconds: 2.5 });
  });

  it('bad values name the key path', () => {
    expect(loadError(`${BASE}[delegation]\nmax_child_tokens = 0\n`).message).toBe(
      `${FILE}: delegation.max_child_tokens: must be at least 1, got 0`,
    );
    expect(loadError(`${BASE}[delegation]\nmax_child_tokens = 1.5\n`).message).toBe(
      `${FILE}: delegation.max_child_tokens: expected an integer, got number 1.5`,
    );
    expect(loadError(`${BASE}max_child_cost_cents = 0\n`).message).toBe(
      `${FILE}: agents.main.max_child_cost_cents: must be greater than 0, got 0`,
    );
    expect(loadError(`${BASE}max_child_seconds = "soon"\n`).message).toBe(
      `${FILE}: agents.main.max_child_seconds: expected a number, got string "soon"`,
    );
    expect(loadError(`${BASE}[delegation]\nconfirm_fanout_over = -1\n`).message).toBe(
      `${FILE}: delegation.confirm_fanout_over: must be between 0 and 1000, got -1`,
    );
  });
});
