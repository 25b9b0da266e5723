// t() keeps the texts it resolved, per language (and, with values, per values): a language
// change must never serve the other language's kept text, nor other values' text.
import { afterAll, describe, expect, it } from 'vitest';
import { setLanguage, t } from '../../src/i18n/index.js';

describe('texts without values', () => {
  afterAll(() => setLanguage('en'));

  it('follow a language change both ways', () => {
    setLanguage('en');
    expect(t('agents:status.running')).toBe('running');
    expect(t('agents:status.running')).toBe('running');
    setLanguage('es');
    expect(t('agents:status.running')).toBe('en curso');
    expect(t('agents:kind.delegate')).toBe('delegado');
    setLanguage('en');
    expect(t('agents:status.running')).toBe('running');
    expect(t('agents:kind.delegate')).toBe('delegate');
  });

  it('and texts with values are resolved with the values given, in the language now', () => {
    setLanguage('en');
    const one = t('agents:row.tools', { count: 1 });
    const two = t('agents:row.tools', { count: 2 });
    expect(one).not.toBe(two);
    expect(t('agents:row.tools', { count: 1 })).toBe(one);
    // A number and the same digits as a string are different values to a plural.
    expect(t('agents:row.tokens', { n: '12' })).toContain('12');
    expect(t('agents:row.tokens', { n: 12 })).toContain('12');
    setLanguage('es');
    expect(t('agents:row.tools', { count: 1 })).not.toBe(one);
    expect(t('agents:status.queuedAt', { n: 3 })).toContain('3');
    setLanguage('en');
    expect(t('agents:row.tools', { count: 2 })).toBe(two);
    // Values that are not plain (objects) are never kept, and still resolve.
    expect(t('agents:status.queuedAt', { n: { toString: () => '9' } })).toContain('9');
  });
});
