// Session files from before tool results carried a display hold only the model's text:
// restore reads delegate's envelope and parallel blocks into a display once, so cards of an
// old session render as they did. The strings come from the tools' own modules.
import { describe, expect, it } from 'vitest';
import { legacyDisplay, restoreDisplay, validDisplay } from '../../../src/persistence/legacyDisplay.js';
import type { ToolTranscriptItem } from '../../../src/model/transcript.js';
import { RETAINED_RESULT_CAP, capResult } from '../../../src/runtime/store.js';
import { backgroundStarted, parallelBlock, parallelHeader, syncEnvelope } from '../../../src/tools/delegate/strings.js';

function item(args: unknown, result: string | undefined, patch: Partial<ToolTranscriptItem> = {}): ToolTranscriptItem {
  return {
    id: 'i',
    kind: 'tool',
    runId: 'r',
    callId: 'c',
    name: 'delegate',
    args,
    rawArgs: '',
    status: 'ok',
    startedAt: 0,
    result,
    ...patch,
  };
}

const one = (r: string, text: string, patch: Partial<ToolTranscriptItem> = {}) =>
  legacyDisplay(item({ agent: r, prompt: 'p' }, text, patch));

describe('sync delegate envelope', () => {
  it('splits the header from the answer', () => {
    expect(one('reviewer', syncEnvelope('reviewer', 'openai/gpt-4o', false, 'Looks good.\nShip it.'))).toEqual({
      kind: 'delegate',
      action: 'delegate',
      targets: [{ target: 'reviewer', success: true, label: 'openai/gpt-4o', agentic: false, answer: 'Looks good.\nShip it.' }],
    });
  });

  it('reads the agentic marker and fallback attributions', () => {
    expect(one('r', syncEnvelope('r', 'anthropic/claude', true, 'ok'))).toMatchObject({
      targets: [{ label: 'anthropic/claude', agentic: true }],
    });
    const fallback = "[Agent 'reviewer' (requested: anthropic.primary/claude; served: openai.terra/gpt-5.6-terra, agentic)]\nAnswer";
    expect(one('reviewer', fallback)).toMatchObject({
      targets: [{ label: 'requested: anthropic.primary/claude; served: openai.terra/gpt-5.6-terra', agentic: true, answer: 'Answer' }],
    });
  });

  it('other formats, another target or an empty answer stay text, shown intact', () => {
    const intact = (text: string) => ({
      kind: 'delegate',
      action: 'delegate',
      targets: [{ target: 'reviewer', success: true, answer: text }],
    });
    for (const text of [
      syncEnvelope('tester', 'a/b', false, 'x'),
      "[Agent 'reviewer' (a/b)]",
      "[Agent 'reviewer' (a/b)]\n  \n",
      "prefix [Agent 'reviewer' (a/b)]\nanswer",
    ]) {
      expect(one('reviewer', text), text).toEqual(intact(text));
    }
    expect(one('reviewer', "Agent 'reviewer' failed: boom", { status: 'error' })).toMatchObject({
      targets: [{ target: 'reviewer', success: false, error: "Agent 'reviewer' failed: boom" }],
    });
  });
});

describe('parallel blocks', () => {
  const ok = (target: string, answer: string) => parallelBlock(target, true, syncEnvelope(target, 'openai/m', false, answer));
  const text =
    parallelHeader(3) +
    [
      ok('reviewer', 'First answer.\n\nWith a blank line.'),
      parallelBlock('tester', false, "Agent 'tester' failed: boom"),
      ok('writer', 'Third.'),
    ].join('\n\n');
  const parallel = (targets: string[], result: string) => legacyDisplay(item({ parallel: targets, prompt: 'p' }, result));

  it('finds one block per target, in call order, bodies intact', () => {
    const d = parallel(['reviewer', 'tester', 'writer'], text);
    expect(d).toMatchObject({ kind: 'delegate', parallel: true });
    expect(d?.kind === 'delegate' && d.targets).toEqual([
      { target: 'reviewer', success: true, label: 'openai/m', agentic: false, answer: 'First answer.\n\nWith a blank line.' },
      { target: 'tester', success: false, error: "Agent 'tester' failed: boom" },
      { target: 'writer', success: true, label: 'openai/m', agentic: false, answer: 'Third.' },
    ]);
  });

  it('is not a parallel result when the header or count differ: no targets, the text stands', () => {
    expect(parallel(['reviewer', 'tester'], text)).toMatchObject({ targets: [] });
    expect(parallel(['x'], "Unknown agent 'x'. Available agents: a")).toMatchObject({ targets: [] });
  });

  it('a block cut off by the 16 KiB retention cap is reported missing, not invented', () => {
    const long = parallelHeader(2) + [ok('reviewer', 'y'.repeat(RETAINED_RESULT_CAP)), ok('tester', 'never kept')].join('\n\n');
    const d = parallel(['reviewer', 'tester'], capResult(long));
    expect(d).toMatchObject({ capped: true });
    expect(d?.kind === 'delegate' && d.targets[0].answer).toBeTruthy();
    expect(d?.kind === 'delegate' && d.targets[1]).toEqual({ target: 'tester', success: false, notRecorded: true });
  });
});

describe('restoring a display', () => {
  it('background launches, task actions and other tools get none from their text', () => {
    expect(legacyDisplay(item({ agent: 'r', prompt: 'p', background: true }, backgroundStarted('r', 'id')))).toBeUndefined();
    expect(legacyDisplay(item({ action: 'check_result', task_id: 'x' }, '{}'))).toBeUndefined();
    expect(legacyDisplay(item({ command: 'ls' }, 'a', { name: 'shell' }))).toBeUndefined();
  });

  it('keeps a valid display, drops a damaged one, and upgrades an old item', () => {
    const diff = {
      kind: 'diff',
      path: 'a',
      hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] }],
      added: 1,
      removed: 1,
    };
    expect(validDisplay(diff)).toBe(diff);
    expect(validDisplay({ ...diff, hunks: [{ lines: [3] }] })).toBeUndefined();
    expect(validDisplay({ kind: 'nonsense' })).toBeUndefined();
    const damaged = item({ command: 'ls' }, 'a', { name: 'shell', display: { kind: 'shell', command: 5 } as never });
    expect(restoreDisplay(damaged).display).toBeUndefined();
    const old = item({ agent: 'r', prompt: 'p' }, syncEnvelope('r', 'a/b', false, 'hi'));
    expect(restoreDisplay(old).display).toMatchObject({ targets: [{ target: 'r', answer: 'hi', label: 'a/b' }] });
  });
});
