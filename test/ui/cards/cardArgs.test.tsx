// Which calls get a dedicated card, read from their arguments only (cardArgs.ts). What a
// call returned is its display: test/unit/persistence/legacyDisplay.test.ts reads old
// sessions' text into one, test/unit/delegate/display.test.ts checks the tool's own.
import { describe, expect, it } from 'vitest';
import { RETAINED_RESULT_CAP, capResult } from '../../../src/runtime/store.js';
import { backgroundStarted } from '../../../src/tools/delegate/strings.js';
import { cardArgs, MAX_CARD_ARGS_BYTES, reachedRetentionCap } from '../../../src/ui/cards/cardArgs.js';

describe('the retention cap', () => {
  it('is reached by a result the runtime cut, not by a short one', () => {
    expect(reachedRetentionCap(capResult('y'.repeat(RETAINED_RESULT_CAP * 2)))).toBe(true);
    expect(reachedRetentionCap('short')).toBe(false);
  });
});

describe('which calls get a dedicated card', () => {
  it('spawn_subagent with a prompt; other arguments stay as input', () => {
    expect(cardArgs('spawn_subagent', { prompt: 'Do it' }, '')).toMatchObject({
      tool: 'spawn_subagent',
      task: 'Do it',
      targets: [],
      extra: [],
    });
  });

  it('delegate: one target, or all of them for parallel; context is input', () => {
    expect(cardArgs('delegate', { agent: 'reviewer', prompt: 'Check', context: 'ctx' }, '')).toMatchObject({
      parallel: false,
      targets: ['reviewer'],
      extra: [['context', 'ctx']],
    });
    expect(cardArgs('delegate', { action: 'delegate', parallel: ['a', 'b'], prompt: 'Check' }, '')).toMatchObject({
      parallel: true,
      targets: ['a', 'b'],
    });
  });

  it('generic: other tools, background launches and task management', () => {
    expect(cardArgs('shell', { command: 'ls', prompt: 'x' }, '')).toBeUndefined();
    expect(cardArgs('delegate', { agent: 'r', prompt: 'p', background: true }, '')).toBeUndefined();
    for (const action of ['check_result', 'list_results', 'cancel_task', 'await_sessions']) {
      expect(cardArgs('delegate', { action, task_id: 'x', prompt: 'p', agent: 'r' }, ''), action).toBeUndefined();
    }
    // The launch text itself never turns a call into a child card.
    expect(backgroundStarted('r', 'id')).toContain('Background task started');
  });

  it('generic: malformed arguments', () => {
    expect(cardArgs('spawn_subagent', undefined, '{"prompt": ')).toBeUndefined();
    expect(cardArgs('spawn_subagent', 'text', '"text"')).toBeUndefined();
    expect(cardArgs('spawn_subagent', { prompt: '  ' }, '')).toBeUndefined();
    expect(cardArgs('delegate', { prompt: 'p' }, '')).toBeUndefined();
    expect(cardArgs('delegate', { agent: 'a', parallel: ['b'], prompt: 'p' }, '')).toBeUndefined();
    expect(cardArgs('delegate', { parallel: [], prompt: 'p' }, '')).toBeUndefined();
    expect(cardArgs('delegate', { parallel: ['a', 3], prompt: 'p' }, '')).toBeUndefined();
    expect(cardArgs('delegate', { agent: 'a', prompt: 'p', context: 5 }, '')).toBeUndefined();
    expect(cardArgs('delegate', { agent: 'a', prompt: 'p', background: 'yes' }, '')).toBeUndefined();
    expect(cardArgs('delegate', { agent: 'a', prompt: 'p', action: 'bogus' }, '')).toBeUndefined();
  });

  it('generic: oversized arguments', () => {
    const prompt = 'x'.repeat(MAX_CARD_ARGS_BYTES);
    const args = { prompt };
    expect(cardArgs('spawn_subagent', args, JSON.stringify(args))).toBeUndefined();
    expect(cardArgs('spawn_subagent', args, '')).toBeUndefined();
    const fits = { prompt: 'x'.repeat(MAX_CARD_ARGS_BYTES - 100) };
    expect(cardArgs('spawn_subagent', fits, JSON.stringify(fits))).toBeDefined();
  });
});
