import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { RUN_ERROR_TEXT, runError, type FixedRunErrorCode, type Run } from '../../../src/model/run.js';
import { runErrorText } from '../../../src/ui/runDisplay.js';

const codes = Object.keys(RUN_ERROR_TEXT) as FixedRunErrorCode[];
const run = (fields: Partial<Run>) => ({ error: undefined, errorCode: undefined, ...fields }) as Run;

afterEach(() => setLanguage('en'));

describe('run errors the runtime words itself', () => {
  it('read in English exactly as the run records them (parent model, traces and tests see that text)', () => {
    setLanguage('en');
    for (const code of codes) expect(runErrorText(run(runError(code)))).toBe(RUN_ERROR_TEXT[code]);
  });

  it('follow the language on screen while the run keeps its English text', () => {
    setLanguage('es');
    for (const code of codes) {
      const r = run(runError(code));
      expect(r.error).toBe(RUN_ERROR_TEXT[code]);
      expect(runErrorText(r)).not.toBe(RUN_ERROR_TEXT[code]);
    }
    expect(runErrorText(run(runError('stoppedWhileQueued')))).toBe('detenido mientras esperaba en la cola');
  });

  it("words a child budget's stop from its values, in English exactly as the parent model reads it", () => {
    const text = 'child budget exhausted: max_child_tokens = 300, used 310; the child was stopped';
    const stopped = run({
      error: text,
      errorCode: 'childBudgetExhausted',
      errorParams: { key: 'max_child_tokens', limit: 300, used: '310' },
    });
    expect(runErrorText(stopped)).toBe(text);
    setLanguage('es');
    expect(runErrorText(stopped)).toBe('presupuesto del hijo agotado: max_child_tokens = 300, usado 310; se detuvo el hijo');
  });

  it('shows any other error (a provider or tool message) as recorded, in any language', () => {
    setLanguage('es');
    expect(runErrorText(run({ error: 'HTTP 500 from the provider' }))).toBe('HTTP 500 from the provider');
    expect(runErrorText(run({}))).toBeUndefined();
  });
});
