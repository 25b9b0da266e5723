// What a generic tool card says on its two rows: delegate arguments spelled out instead of
// an unexplained "(+2)", and a JSON task view previewed by its status, not as "└ {".
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { resultPreview, toolArgsSummary } from '../../src/ui/text/format.js';

describe('tool card preview', () => {
  it('a background delegate names its agent and mode; other tools keep the short form', () => {
    // One form for every delegate call, as the dedicated card's "delegate → researcher".
    expect(toolArgsSummary('delegate', { agent: 'researcher', prompt: 'write a report', background: true })).toBe(
      '→ researcher · background · write a report',
    );
    expect(toolArgsSummary('delegate', { action: 'check_result', task_id: '0b6f3a52-8c1e-4d5a-9f7e-2a1b3c4d5e6f' })).toBe(
      'check_result · 0b6f3a52-8c1e-4d5a-9f7e-2a1b3c4d5e6f',
    );
    expect(toolArgsSummary('delegate', { action: 'await_sessions', task_ids: ['a1', 'b2'], timeout_ms: 5000 })).toBe(
      'await_sessions · a1, b2 · timeout_ms=5000',
    );
    expect(toolArgsSummary('delegate', { action: 'list_results' })).toBe('list_results');
    expect(toolArgsSummary('delegate', { parallel: ['researcher', 'reviewer'], prompt: 'compare' })).toBe(
      '→ researcher, reviewer · compare',
    );
    expect(toolArgsSummary('write_file', { path: 'a.txt', content: 'x' })).toBe('a.txt (+1)');
  });

  it('the background word is translated (es)', () => {
    setLanguage('es');
    try {
      expect(toolArgsSummary('delegate', { agent: 'researcher', prompt: 'informe', background: true })).toBe(
        '→ researcher · segundo plano · informe',
      );
    } finally {
      setLanguage('en');
    }
  });

  it('a check_result view reads as its status and output', () => {
    const view = JSON.stringify(
      { task_id: 'abc', agent: 'researcher', status: 'completed', output: 'The report.\nPage two.', error: null },
      null,
      2,
    );
    expect(resultPreview(view)).toBe('status=completed · agent=researcher · task_id=abc · output: The report.');
    expect(resultPreview('{"n": 3, "ok": true}')).toBe('n=3 ok=true');
    expect(resultPreview('{ not json')).toBe('{ not json');
    expect(resultPreview('plain text\nmore')).toBe('plain text');
  });
});
