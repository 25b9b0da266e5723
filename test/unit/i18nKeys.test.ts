// Translation keys are checked by the type checker: src/i18n/keys.ts is the union of every
// catalog key, generated from locales/en. Stale means a key was added or removed without
// regenerating it, so the union no longer says what the catalogs hold.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/index.js';

describe('translation keys', () => {
  it('src/i18n/keys.ts is what the catalogs give (npm run i18n:keys)', () => {
    expect(() => execFileSync(process.execPath, ['scripts/i18n-keys.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('a key no catalog has does not type-check', () => {
    // @ts-expect-error -- the point: tsc (npm run typecheck) fails if this line is accepted
    const text = t('ui:no.such.key');
    expect(text).toBe('no.such.key');
  });
});
