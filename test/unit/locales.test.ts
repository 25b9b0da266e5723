import { describe, it, expect } from 'vitest';
import { loadCatalogs } from '../../src/i18n/index.js';

function flatten(obj: Record<string, unknown>, prefix = ''): string[] {
  const keys: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) keys.push(...flatten(v as Record<string, unknown>, path));
    else keys.push(path);
  }
  return keys;
}

describe('locale catalogs', () => {
  const catalogs = loadCatalogs();
  it('has the same namespaces in en and es', () => {
    expect(Object.keys(catalogs.es).sort()).toEqual(Object.keys(catalogs.en).sort());
  });
  for (const ns of Object.keys(catalogs.en)) {
    it(`namespace ${ns}: every key exists in both languages, none empty`, () => {
      const en = flatten(catalogs.en[ns]).sort();
      const es = flatten(catalogs.es[ns] ?? {}).sort();
      expect(es).toEqual(en);
      for (const key of es) {
        const value = key.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], catalogs.es[ns]);
        expect(typeof value === 'string' && value.length > 0, `${ns}:${key} is empty in es`).toBe(true);
      }
    });
  }
});
