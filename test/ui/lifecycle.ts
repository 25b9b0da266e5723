// The per-file hooks of the UI tests: each test starts in English and leaves no mounted
// Ink app behind, whatever language or app it left.
import { afterEach, beforeEach } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { setLanguage } from '../../src/i18n/index.js';

export function resetUiBetweenTests(): void {
  beforeEach(() => setLanguage('en'));
  afterEach(() => {
    cleanup();
    setLanguage('en');
  });
}
