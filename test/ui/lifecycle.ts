// The per-file hooks of the UI tests: each test starts in English and leaves no mounted
// Ink app behind, whatever language or app it left.
import { afterEach, beforeEach, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { setLanguage, SUPPORTED_LANGUAGES, type Language } from '../../src/i18n/index.js';

export function resetUiBetweenTests(): void {
  beforeEach(() => setLanguage('en'));
  afterEach(() => {
    cleanup();
    setLanguage('en');
  });
}

/** One test per language (`name` takes it at %s): the language is set, then `body` runs with
 * what that language shows. Every supported language must be given. */
export function itInEachLanguage<T>(name: string, shown: Record<Language, T>, body: (shown: T) => Promise<void>): void {
  it.each(SUPPORTED_LANGUAGES)(name, async (lang) => {
    setLanguage(lang);
    await body(shown[lang]);
  });
}
