// With no config, /model nonsense and /mcp restart nosuch say there are none and how to add
// one, instead of "(configured: offline)" and "(configured: -)" (issue #20 wording).
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { loadConfigFromTexts } from '../../src/config/load.js';
import { parseModelSpec, modelChoices } from '../../src/runtime/rootModel.js';
import { FakeRuntime } from './fakeRuntime.js';
import { mcpCommand } from '../../src/ui/commands/mcp.js';

afterEach(() => setLanguage('en'));

describe('nothing configured', () => {
  const starter = loadConfigFromTexts([], {}).config;

  it('/model with an unknown provider: none besides the built-in offline one, and where to add one', () => {
    setLanguage('en');
    expect(() => parseModelSpec('nonsense', starter)).toThrow(
      'No provider "nonsense": none is configured besides the built-in offline one. Add a [providers.<name>] table to config.toml (arbor init writes a commented starter).',
    );
    expect(() => parseModelSpec('', starter)).toThrow('(configured: none besides the built-in offline one)');
    setLanguage('es');
    expect(() => parseModelSpec('nonsense', starter)).toThrow(
      'No hay ningún proveedor "nonsense": no hay ninguno configurado aparte del offline integrado. Añade una tabla [providers.<nombre>] a config.toml (arbor init escribe una de partida comentada).',
    );
    // The offline model itself is still there to pick.
    expect(modelChoices(starter, { provider: 'offline' }).map((c) => c.id)).toEqual(['offline']);
  });

  it('a configured provider is named, the built-in offline one beside it is not', () => {
    const own = loadConfigFromTexts(
      [{ file: '/x.toml', text: '[providers.fake]\ntype = "offline"\nmodel = "m"\n[agents.main]\nprovider = "fake"\n' }],
      {},
    ).config;
    expect(() => parseModelSpec('nonsense', own)).toThrow('No provider "nonsense" in the config (configured: fake).');
  });

  for (const [lang, text] of [
    ['en', 'No MCP server "nosuch": none is configured. Add one as a [mcp_servers.<name>] table in config.toml.'],
    ['es', 'No hay ningún servidor MCP "nosuch": no hay ninguno configurado. Añade uno como tabla [mcp_servers.<nombre>] en config.toml.'],
  ] as const) {
    it(`/mcp restart nosuch with no servers (${lang})`, async () => {
      setLanguage(lang);
      const runtime = new FakeRuntime();
      Object.assign(runtime, { mcpRestart: async () => undefined });
      const printed: string[] = [];
      await mcpCommand.run(['restart', 'nosuch'], { runtime, print: (line: string) => printed.push(line) } as never);
      expect(printed).toEqual([text]);
    });
  }
});
