// `[ui] show_reasoning` and `[providers.<name>] thinking_budget_tokens`: accepted values,
// what absence means, and errors that name the key path and what was wrong.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { BASE, FILE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

describe('[ui] show_reasoning', () => {
  it('takes collapsed, hidden or expanded; absent it is left to the default (collapsed)', () => {
    for (const mode of ['collapsed', 'hidden', 'expanded']) {
      expect(load(`${BASE}[ui]\nshow_reasoning = "${mode}"`).config.ui.show_reasoning).toBe(mode);
    }
    expect(load(BASE).config.ui.show_reasoning).toBeUndefined();
    expect(load(BASE).warnings).toEqual([]);
  });

  it('names the key and the allowed values for anything else', () => {
    const err = loadError(`${BASE}[ui]\nshow_reasoning = "loud"`);
    expect(err.message).toBe(`${FILE}: ui.show_reasoning: must be one of "collapsed", "hidden", "expanded", got "loud"`);
    expect(err.keyPath).toBe('ui.show_reasoning');
    expect(loadError(`${BASE}[ui]\nshow_reasoning = true`).message).toBe(`${FILE}: ui.show_reasoning: expected a string, got boolean true`);
  });
});

describe('[providers.<name>] thinking_budget_tokens', () => {
  const anthropic = (extra: string) => `
[providers.claude]
type = "anthropic"
model = "claude-test"
${extra}
[agents.main]
provider = "claude"
`;
  it('is an integer of at least 1024', () => {
    expect(load(anthropic('thinking_budget_tokens = 4096')).config.providers.claude.thinking_budget_tokens).toBe(4096);
    const low = loadError(anthropic('thinking_budget_tokens = 100'));
    expect(low.message).toBe(`${FILE}: providers.claude.thinking_budget_tokens: must be at least 1024, got 100`);
    expect(low.keyPath).toBe('providers.claude.thinking_budget_tokens');
    expect(loadError(anthropic('thinking_budget_tokens = 2048.5')).message).toBe(
      `${FILE}: providers.claude.thinking_budget_tokens: expected an integer, got number 2048.5`,
    );
  });
});
