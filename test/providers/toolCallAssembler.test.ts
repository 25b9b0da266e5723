// A reply's tool calls handed on as soon as the stream has each one whole
// (providers/toolCallAssembler.ts), in the order the provider's stream parts come: the
// openai-compatible SDK streams each call's input start and deltas but emits every
// `tool-call` only at the reply's end; Anthropic emits each call's `tool-call` at its block's end.
import { describe, expect, it } from 'vitest';
import { ToolCallAssembler } from '../../src/providers/toolCallAssembler.js';

describe('ToolCallAssembler', () => {
  it('hands a call on when the next one starts, and not again at the reply end', () => {
    const a = new ToolCallAssembler();
    expect(a.start('c1', 'spawn_subagent')).toBeUndefined();
    a.delta('c1', '{"prompt":');
    a.delta('c1', '"one"}');
    expect(a.start('c2', 'spawn_subagent')).toEqual({
      id: 'c1',
      name: 'spawn_subagent',
      args: { prompt: 'one' },
      rawArgs: '{"prompt":"one"}',
    });
    a.delta('c2', '{"prompt":"two"}');
    // The SDK's flush at the reply's end: the first call was handed on, the last one now.
    expect(a.final('c1', 'spawn_subagent', '{"prompt":"one"}')).toBeUndefined();
    expect(a.final('c2', 'spawn_subagent', '{"prompt":"two"}')).toEqual({
      id: 'c2',
      name: 'spawn_subagent',
      args: { prompt: 'two' },
      rawArgs: '{"prompt":"two"}',
    });
  });

  it('waits for the provider when the arguments so far are not a whole JSON object', () => {
    const a = new ToolCallAssembler();
    a.start('c1', 'shell');
    a.delta('c1', '{"command": "ls"');
    expect(a.start('c2', 'shell')).toBeUndefined();
    a.delta('c1', '}');
    a.delta('c2', '{}');
    expect(a.final('c1', 'shell', '{"command": "ls"}')).toMatchObject({ id: 'c1', args: { command: 'ls' } });
    expect(a.final('c2', 'shell', '{}')).toMatchObject({ id: 'c2', args: {} });
  });

  it('never hands on early a call without arguments, an array or text that does not parse', () => {
    for (const raw of ['', '[1,2]', 'not json', '"text"', 'null']) {
      const a = new ToolCallAssembler();
      a.start('c1', 't');
      if (raw) a.delta('c1', raw);
      expect(a.start('c2', 't')).toBeUndefined();
      const last = a.final('c1', 't', raw);
      expect(last?.id).toBe('c1');
      expect(last?.rawArgs).toBe(raw);
    }
  });

  it('with calls finished block by block (Anthropic), each is handed on once, at its own end', () => {
    const a = new ToolCallAssembler();
    const out = [];
    for (const id of ['t1', 't2', 't3']) {
      const early = a.start(id, 'read_file');
      if (early) out.push(early);
      a.delta(id, `{"path":"${id}.txt"}`);
      const own = a.final(id, 'read_file', `{"path":"${id}.txt"}`);
      if (own) out.push(own);
    }
    expect(out.map((c) => c.id)).toEqual(['t1', 't2', 't3']);
    expect(out.map((c) => c.args)).toEqual([{ path: 't1.txt' }, { path: 't2.txt' }, { path: 't3.txt' }]);
  });

  it('takes the final input over the deltas when the provider gives one, and the deltas when it does not', () => {
    const a = new ToolCallAssembler();
    a.start('c1', 't');
    a.delta('c1', '{"a":1}');
    expect(a.final('c1', 't', '')).toMatchObject({ args: { a: 1 }, rawArgs: '{"a":1}' });
    const b = new ToolCallAssembler();
    b.start('c1', 't');
    expect(b.final('c1', 't', '{"b":2}')).toMatchObject({ args: { b: 2 }, rawArgs: '{"b":2}' });
  });
});
