// The built-in offline provider is known by its name without a [providers.offline] table
// (issue #20 item 7); a user's own table of that name still wins.
import { describe, expect, it } from 'vitest';
import { BASE, load, loadError } from './helpers.js';

describe('provider = "offline"', () => {
  it('is accepted with no [providers.offline] and resolves to the built-in offline model', () => {
    const { config } = load('[agents.main]\nprovider = "offline"\n');
    expect(config.agents.main.provider).toBe('offline');
    expect(config.providers.offline).toMatchObject({ name: 'offline', type: 'offline', model: 'arbor-offline' });
  });

  it('sits beside other providers', () => {
    const { config } = load(`${BASE}\n[agents.helper]\nprovider = "offline"\n`);
    expect(Object.keys(config.providers).sort()).toEqual(['local', 'offline']);
    expect(config.agents.main.provider).toBe('local');
  });

  it("a user's [providers.offline] table wins", () => {
    const { config } = load(
      '[providers.offline]\ntype = "openai-compatible"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n\n[agents.main]\nprovider = "offline"\n',
    );
    expect(config.providers.offline).toMatchObject({ type: 'openai-compatible', model: 'm' });
  });

  it('is not added when no agent names it, and other unknown names are still errors', () => {
    // The built-in agents kept beside BASE's main name it (#20 item 6); with them replaced, none does.
    expect(load(BASE).config.providers.offline).toMatchObject({ type: 'offline' });
    const replaced = `${BASE}\n[agents.researcher]\nprovider = "local"\n[agents.reviewer]\nprovider = "local"\n`;
    expect(load(replaced).config.providers.offline).toBeUndefined();
    const err = loadError(`${BASE}\n[agents.x]\nprovider = "nosuch"\n`);
    expect(err.message).toContain('"nosuch"');
  });
});
