// Counts read right in both languages: i18next picks the _one/_other key by count.
import { afterAll, describe, expect, it } from 'vitest';
import { initI18n, setLanguage, t, type TranslationKey } from '../../src/i18n/index.js';

initI18n('en');
afterAll(() => setLanguage('en'));

const CASES: Array<[TranslationKey, Record<string, unknown>, { en: [string, string]; es: [string, string] }]> = [
  ['ui:input.moreBelow', {}, { en: ['… 1 more line below', '… 2 more lines below'], es: ['… 1 línea más abajo', '… 2 líneas más abajo'] }],
  [
    'ui:input.moreAbove',
    {},
    { en: ['… 1 more line above', '… 2 more lines above'], es: ['… 1 línea más arriba', '… 2 líneas más arriba'] },
  ],
  [
    'transcript:viewer.moreLines',
    {},
    {
      en: ['… 1 more line (Enter expands)', '… 2 more lines (Enter expands)'],
      es: ['… 1 línea más (Enter expande)', '… 2 líneas más (Enter expande)'],
    },
  ],
  [
    'agents:transcript.moreLines',
    {},
    {
      en: ['… 1 more line (/subagents log shows it)', '… 2 more lines (/subagents log shows them)'],
      es: ['… 1 línea más (/subagents log la muestra)', '… 2 líneas más (/subagents log las muestra)'],
    },
  ],
  ['agents:row.tools', {}, { en: ['1 tool', '2 tools'], es: ['1 herr.', '2 herr.'] }],
  ['transcript:live.tools', {}, { en: ['1 tool done', '2 tools done'], es: [] as unknown as [string, string] }],
  ['ui:picker.turns', {}, { en: ['1 turn', '2 turns'], es: ['1 turno', '2 turnos'] }],
  [
    'persistence:restore.tasksLost',
    { ids: 'ab12cd34' },
    {
      en: [
        '1 background task of this session was lost when arbor exited: ab12cd34.',
        '2 background tasks of this session were lost when arbor exited: ab12cd34.',
      ],
      es: [
        '1 tarea en segundo plano de esta sesión se perdió al cerrarse arbor: ab12cd34.',
        '2 tareas en segundo plano de esta sesión se perdieron al cerrarse arbor: ab12cd34.',
      ],
    },
  ],
];

describe('plurals', () => {
  for (const lang of ['en', 'es'] as const) {
    it(`${lang}: one and many`, () => {
      setLanguage(lang);
      for (const [key, vars, want] of CASES) {
        const [one, many] = want[lang];
        if (one === undefined) continue;
        expect(t(key, { ...vars, count: 1 }), key).toBe(one);
        expect(t(key, { ...vars, count: 2 }), key).toBe(many);
      }
    });
  }
});
