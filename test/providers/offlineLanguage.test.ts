// The offline model follows the UI language (issue #20 wording): after /lang es (which sets
// the i18n language) its reply is Spanish; the example prompts it recognises stay as written.
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { createOfflineProvider } from '../../src/providers/offline.js';

afterEach(() => setLanguage('en'));

async function reply(text: string): Promise<string> {
  const model = createOfflineProvider(
    { name: 'offline', type: 'offline', model: 'arbor-offline', headers: {} },
    { ARBOR_OFFLINE_DELAY_MS: '0' },
  );
  let out = '';
  for await (const ev of model.stream({ messages: [{ role: 'user', content: text }], tools: [], signal: new AbortController().signal })) {
    if (ev.type === 'text') out += ev.delta;
  }
  return out;
}

describe('offline model language', () => {
  it('answers in the language the UI is in, read at each reply', async () => {
    setLanguage('en');
    const en = await reply('hola');
    expect(en).toContain('[offline model] You said: "hola"');
    expect(en).toContain("I am arbor's built-in offline model");
    setLanguage('es');
    const es = await reply('hola');
    expect(es).toContain('[offline model] Dijiste: "hola"');
    expect(es).toContain('Soy el modelo offline integrado de arbor');
    expect(es).toContain('ejecuta `arbor init`');
    expect(es).not.toContain('You said');
  });
});
