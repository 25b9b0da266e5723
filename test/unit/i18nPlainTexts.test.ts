// t() keeps the texts it resolved without values, per language: a language change must
// never serve the other language's kept text, and texts with values are never kept.
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

  it('and texts with values are resolved with the values given each time', () => {
    setLanguage('en');
    const one = t('agents:row.tools', { count: 1 });
    const two = t('agents:row.tools', { count: 2 });
    expect(one).not.toBe(two);
    expect(t('agents:row.tools', { count: 1 })).toBe(one);
  });
});
