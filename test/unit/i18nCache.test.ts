// t() keeps the strings it has translated (src/i18n/index.ts): the screen asks for the same
// ones on every frame. What it gives must be what i18next gives for the same call, whatever
// the values and across language changes.
import i18next from 'i18next';
import { afterAll, describe, expect, it } from 'vitest';
import { setLanguage, t, type TranslationKey } from '../../src/i18n/index.js';

const fresh = (key: TranslationKey, options?: Record<string, unknown>) => String(i18next.t(key, options as never));

const calls: Array<[TranslationKey, Record<string, unknown>?]> = [
  ['ui:live.earlier'],
  ['ui:status.tokens', { in: '1.2k', out: '30' }],
  ['ui:status.tokens', { in: '1.2k', out: '31' }],
  ['ui:status.tokens', { out: '31', in: '1.2k' }],
  // Values JSON must keep apart (quotes, separators, control characters).
  ['ui:status.tokens', { in: 'a","out":"b', out: 'c' }],
  ['ui:status.tokens', { in: 'a', out: 'b","in":"c' }],
  ['ui:status.tokens', { in: '\u0000x', out: '\u0001' }],
  // NaN and Infinity both read null in JSON; a long value is model text.
  ['ui:status.tokens', { in: NaN, out: 1 }],
  ['ui:status.tokens', { in: Infinity, out: 1 }],
  ['ui:status.tokens', { in: 'x'.repeat(500), out: 1 }],
  ['ui:status.tokens', { in: 'x'.repeat(501), out: 1 }],
  // Plurals follow count; an object value is never kept.
  ['ui:status.mcpFailed', { count: 1 }],
  ['ui:status.mcpFailed', { count: 2 }],
  ['ui:status.tokens', { in: { toString: () => 'obj' }, out: 1 }],
];

afterAll(() => setLanguage('en'));

describe('t() keeps what it translated', () => {
  it('gives what i18next gives, asked once or many times, in either language and back', () => {
    for (const language of ['en', 'es', 'en'] as const) {
      setLanguage(language);
      for (let round = 0; round < 3; round++) {
        for (const [key, options] of calls) expect(t(key, options)).toBe(fresh(key, options));
      }
    }
  });

  it('a language change is seen at once by strings asked for before it', () => {
    setLanguage('en');
    const en = t('ui:status.tokens', { in: '1', out: '2' });
    setLanguage('es');
    const es = t('ui:status.tokens', { in: '1', out: '2' });
    expect(en).toBe('1 in / 2 out');
    expect(es).toBe('1 entrada / 2 salida');
  });

  it('stays right past its size limit', () => {
    setLanguage('en');
    for (let i = 0; i < 2500; i++) expect(t('ui:status.tokens', { in: String(i), out: '0' })).toBe(`${i} in / 0 out`);
    expect(t('ui:status.tokens', { in: '7', out: '0' })).toBe('7 in / 0 out');
  });
});
