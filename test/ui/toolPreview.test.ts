// What a generic tool card says on its two rows: delegate arguments spelled out instead of
// an unexplained "(+2)", and a JSON task view previewed by its status, not as "└ {".
import { describe, expect, it } from 'vitest';
import type { ToolDisplay } from '../../src/model/toolDisplay.js';
import { restoreDisplay } from '../../src/persistence/legacyDisplay.js';
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

  it('a check_result view reads as its status and output, from its display', () => {
    const view = JSON.stringify(
      { task_id: 'abc', agent: 'researcher', status: 'completed', output: 'The report.\nPage two.', error: null },
      null,
      2,
    );
    const display: ToolDisplay = {
      kind: 'delegate',
      action: 'check_result',
      taskIds: ['abc'],
      targets: [{ target: 'researcher', success: true, taskId: 'abc', status: 'completed', answer: 'The report.\nPage two.' }],
    };
    expect(resultPreview(view, display)).toBe('status=completed · agent=researcher · task_id=abc · output: The report.');
    // The text alone is not parsed: its first line that says something.
    expect(resultPreview(view)).toBe('"task_id": "abc",');
    expect(resultPreview('{"n": 3, "ok": true}')).toBe('{"n": 3, "ok": true}');
    expect(resultPreview('{ not json')).toBe('{ not json');
    expect(resultPreview('plain text\nmore')).toBe('plain text');
  });

  it('an old session file without a display still previews its check_result view', () => {
    const view = JSON.stringify({ task_id: 'abc', agent: 'researcher', status: 'failed', output: null, error: 'boom\nmore' }, null, 2);
    const restored = restoreDisplay({
      id: 'i',
      kind: 'tool',
      runId: 'r',
      callId: 'c',
      name: 'delegate',
      args: { action: 'check_result', task_id: 'abc' },
      rawArgs: '',
      status: 'ok',
      result: view,
      startedAt: 0,
    });
    expect(resultPreview(restored.result, restored.display)).toBe('status=failed · agent=researcher · task_id=abc · error: boom');
  });
});
