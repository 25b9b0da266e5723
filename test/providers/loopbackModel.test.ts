// The fake server itself: helpers for both dialects, non-streaming replies, cleanup.
import { afterEach, describe, expect, it } from 'vitest';
import { hasToolResults, lastUserText, startLoopbackModel, trailingToolResults, type LoopbackModel } from '../support/loopbackModel.js';

let server: LoopbackModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const openaiBody = {
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'first' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'result one' },
  ],
};

const anthropicBody = {
  system: [{ type: 'text', text: 'sys' }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'first' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'result one', is_error: true }] },
  ],
};

describe('loopback helpers', () => {
  it('find the last typed user text and trailing tool results in both dialects', () => {
    expect(lastUserText(openaiBody)).toBe('first');
    expect(lastUserText(anthropicBody)).toBe('first');
    expect(hasToolResults(openaiBody)).toBe(true);
    expect(hasToolResults(anthropicBody)).toBe(true);
    expect(trailingToolResults(openaiBody)).toEqual([{ toolCallId: 'c1', content: 'result one', isError: false }]);
    expect(trailingToolResults(anthropicBody)).toEqual([{ toolCallId: 't1', content: 'result one', isError: true }]);
    const fresh = { messages: [{ role: 'user', content: 'again' }] };
    expect(hasToolResults(fresh)).toBe(false);
    expect(lastUserText(fresh)).toBe('again');
  });
});

describe('loopback server', () => {
  it('answers non-streaming requests with a complete body', async () => {
    server = await startLoopbackModel({
      dialect: 'openai',
      respond: () => ({ kind: 'tools', calls: [{ id: 'c9', name: 'f', args: { a: 1 } }] }),
    });
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    });
    const body = (await res.json()) as { choices: Array<{ message: { tool_calls: unknown[] }; finish_reason: string }> };
    expect(body.choices[0].message.tool_calls[0]).toEqual({ id: 'c9', type: 'function', function: { name: 'f', arguments: '{"a":1}' } });
    expect(body.choices[0].finish_reason).toBe('tool_calls');
  });

  it('streams anthropic SSE events in order', async () => {
    server = await startLoopbackModel({ dialect: 'anthropic', respond: () => ({ kind: 'text', chunks: ['a', 'b'] }) });
    const res = await fetch(`${server.url}/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'c', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    const events = [...(await res.text()).matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('answers 404 on a path its dialect does not serve', async () => {
    server = await startLoopbackModel({ dialect: 'anthropic', respond: () => ({ kind: 'text', chunks: ['a'] }) });
    const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    await res.text();
  });

  it('close() ends hanging exchanges so nothing keeps the process alive', async () => {
    server = await startLoopbackModel({ dialect: 'openai', respond: () => ({ kind: 'hang' }) });
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [] }),
    });
    const reading = res.text().catch((err: unknown) => err);
    const started = Date.now();
    await server.close();
    server = undefined;
    await reading;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
