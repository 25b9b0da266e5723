// The card reads exactly what the tools emit: the strings come from the tools' own modules.
import { describe, expect, it } from 'vitest';
import { RETAINED_RESULT_CAP, capResult } from '../../../src/runtime/store.js';
import { backgroundStarted, parallelBlock, parallelHeader, syncEnvelope } from '../../../src/tools/delegate/strings.js';
import {
  blockError,
  cardArgs,
  MAX_CARD_ARGS_BYTES,
  parseEnvelope,
  parseParallel,
  reachedRetentionCap,
} from '../../../src/ui/cards/parse.js';

describe('sync delegate envelope', () => {
  it('splits the header from the answer', () => {
    const env = parseEnvelope(syncEnvelope('reviewer', 'openai/gpt-4o', false, 'Looks good.\nShip it.'), 'reviewer');
    expect(env).toEqual({ target: 'reviewer', attribution: 'openai/gpt-4o', agentic: false, response: 'Looks good.\nShip it.' });
  });

  it('reads the agentic marker and fallback attributions', () => {
    expect(parseEnvelope(syncEnvelope('r', 'anthropic/claude', true, 'ok'))).toMatchObject({
      attribution: 'anthropic/claude',
      agentic: true,
    });
    const fallback = "[Agent 'reviewer' (requested: anthropic.primary/claude; served: openai.terra/gpt-5.6-terra, agentic)]\nAnswer";
    expect(parseEnvelope(fallback, 'reviewer')).toMatchObject({
      attribution: 'requested: anthropic.primary/claude; served: openai.terra/gpt-5.6-terra',
      agentic: true,
      response: 'Answer',
    });
  });

  it('does not match other formats, another target, or an empty answer', () => {
    expect(parseEnvelope("Agent 'reviewer' failed: boom", 'reviewer')).toBeUndefined();
    expect(parseEnvelope(syncEnvelope('tester', 'a/b', false, 'x'), 'reviewer')).toBeUndefined();
    expect(parseEnvelope("[Agent 'reviewer' (a/b)]", 'reviewer')).toBeUndefined();
    expect(parseEnvelope("[Agent 'reviewer' (a/b)]\n  \n", 'reviewer')).toBeUndefined();
    expect(parseEnvelope("prefix [Agent 'reviewer' (a/b)]\nanswer", 'reviewer')).toBeUndefined();
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

  it('finds one block per target, in call order, bodies intact', () => {
    const blocks = parseParallel(text, ['reviewer', 'tester', 'writer'])!;
    expect(blocks.map((b) => [b.target, b.reportedSuccess])).toEqual([
      ['reviewer', true],
      ['tester', false],
      ['writer', true],
    ]);
    expect(blocks[0].envelope?.response).toBe('First answer.\n\nWith a blank line.');
    expect(blockError(blocks[1].body!)).toBe("Agent 'tester' failed: boom");
    expect(blocks[2].envelope?.response).toBe('Third.');
  });

  it('is not a parallel result when the header or count differ', () => {
    expect(parseParallel(text, ['reviewer', 'tester'])).toBeUndefined();
    expect(parseParallel("Unknown agent 'x'. Available agents: a", ['x'])).toBeUndefined();
  });

  it('a block cut off by the 16 KiB retention cap is reported missing, not invented', () => {
    const long = parallelHeader(2) + [ok('reviewer', 'y'.repeat(RETAINED_RESULT_CAP)), ok('tester', 'never kept')].join('\n\n');
    const kept = capResult(long);
    expect(reachedRetentionCap(kept)).toBe(true);
    const blocks = parseParallel(kept, ['reviewer', 'tester'])!;
    expect(blocks[0].body).toBeDefined();
    expect(blocks[1].body).toBeUndefined();
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
