// The real provider code (AI SDK + our retry and error mapping) against loopback servers
// that speak the OpenAI chat-completions and Anthropic messages wire formats.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/config/types.js';
import { setLanguage } from '../../src/i18n/index.js';
import { createProvider } from '../../src/providers/createProvider.js';
import { ProviderError, type ModelMessage, type StreamEvent } from '../../src/providers/types.js';
import {
  lastUserText,
  startLoopbackModel,
  trailingToolResults,
  type LoopbackDialect,
  type LoopbackModel,
  type LoopbackReply,
} from '../support/loopbackModel.js';
import { drain, readFileTool } from './streamHelpers.js';
import { offeredTools, requestOf } from '../support/wireRequest.js';

const SECRET = 'sk-test-SECRET-0123456789abcdef';
const KEY_ENV = 'ARBOR_TEST_PROVIDER_KEY';
const ENV = { [KEY_ENV]: SECRET, ARBOR_RETRY_BASE_MS: '5' };
const HELLO: ModelMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Say hello' },
];

const cases: Array<{ dialect: LoopbackDialect; type: ProviderConfig['type'] }> = [
  { dialect: 'openai', type: 'openai-compatible' },
  { dialect: 'anthropic', type: 'anthropic' },
];

beforeAll(() => setLanguage('en'));

describe.each(cases)('$type provider against a loopback $dialect server', ({ dialect, type }) => {
  let server: LoopbackModel | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serve(respond: (index: number) => LoopbackReply): Promise<LoopbackModel> {
    server = await startLoopbackModel({ dialect, respond: ({ index }) => respond(index) });
    return server;
  }

  function provider(url: string, extra: Partial<ProviderConfig> = {}, env: Record<string, string> = ENV) {
    return createProvider({ name: 'local', type, base_url: url, model: 'test-model', api_key_env: KEY_ENV, headers: {}, ...extra }, env);
  }

  const retries = (events: StreamEvent[]) => events.filter((e) => e.type === 'retry');

  it('streams text deltas, usage and the finish reason, sending key, headers and options', async () => {
    const srv = await serve(() => ({ kind: 'text', chunks: ['Hel', 'lo ', 'world'], usage: { input: 11, output: 7 } }));
    const p = provider(srv.url, { headers: { 'X-Arbor-Test': 'yes' }, temperature: 0.3, max_tokens: 99 });
    const out = await drain(p, { messages: HELLO });

    expect(out.error).toBeUndefined();
    expect(out.events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta)).toEqual(['Hel', 'lo ', 'world']);
    expect(out.events).toContainEqual({ type: 'usage', usage: { inputTokens: 11, outputTokens: 7 } });
    expect(out.events[out.events.length - 1]).toEqual({ type: 'finish', reason: 'stop' });

    const req = srv.requests[0];
    const sent = requestOf(req.body);
    expect(sent.stream).toBe(true);
    expect(sent.temperature).toBe(0.3);
    expect(sent.max_tokens).toBe(99);
    expect(req.headers['x-arbor-test']).toBe('yes');
    expect(lastUserText(req.body)).toBe('Say hello');
    if (dialect === 'openai') {
      expect(req.path).toBe('/v1/chat/completions');
      expect(req.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(sent.messages?.[0]).toEqual({ role: 'system', content: 'You are terse.' });
    } else {
      expect(req.path).toBe('/v1/messages');
      expect(req.headers['x-api-key']).toBe(SECRET);
      expect(JSON.stringify(sent.system)).toContain('You are terse.');
    }
  });

  it('streams requests after the first (the SDK code loaded) the same way, and aborts them the same way', async () => {
    const srv = await serve((index) =>
      index < 2
        ? { kind: 'text', chunks: [`reply${index} `, 'two ', 'three'], usage: { input: 3, output: 3 } }
        : { kind: 'text', chunks: Array.from({ length: 50 }, (_, i) => `w${i} `), delayMs: 20 },
    );
    const p = provider(srv.url);
    const first = await drain(p, { messages: HELLO });
    const second = await drain(p, { messages: HELLO });
    expect(first.error).toBeUndefined();
    expect(second.error).toBeUndefined();
    expect(first.text).toBe('reply0 two three');
    expect(second.text).toBe('reply1 two three');
    expect(second.events.map((e) => e.type)).toEqual(first.events.map((e) => e.type));

    const ac = new AbortController();
    const third = await drain(p, { messages: HELLO, signal: ac.signal }, (e) => {
      if (e.type === 'text') ac.abort();
    });
    expect((third.error as ProviderError).kind).toBe('aborted');
    await expect(srv.requests[2].ended).resolves.toBe('client_closed');
  });

  it('streams tool calls keeping ids, parsing arguments and keeping raw text that does not parse', async () => {
    const srv = await serve(() => ({
      kind: 'tools',
      text: 'Reading.',
      calls: [
        { id: 'call_A1', name: 'read_file', args: { path: 'a.txt' } },
        { id: 'call_B2', name: 'read_file', args: '{"path": "b.t' },
      ],
    }));
    const out = await drain(provider(srv.url), { messages: HELLO, tools: [readFileTool] });

    expect(out.error).toBeUndefined();
    expect(out.text).toBe('Reading.');
    const calls = out.events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    expect(calls).toEqual([
      { id: 'call_A1', name: 'read_file', args: { path: 'a.txt' }, rawArgs: '{"path":"a.txt"}' },
      { id: 'call_B2', name: 'read_file', args: undefined, rawArgs: '{"path": "b.t' },
    ]);
    expect(out.events[out.events.length - 1]).toEqual({ type: 'finish', reason: 'tool_calls' });
    expect(offeredTools(srv.requests[0].body).map((t) => t.name)).toContain('read_file');
  });

  it('sends assistant tool calls and their results back in the wire format', async () => {
    const srv = await serve(() => ({ kind: 'text', chunks: ['done'] }));
    const history: ModelMessage[] = [
      ...HELLO,
      {
        role: 'assistant',
        content: 'Reading.',
        toolCalls: [
          { id: 'call_A1', name: 'read_file', args: { path: 'a.txt' }, rawArgs: '{"path":"a.txt"}' },
          { id: 'call_B2', name: 'read_file', args: undefined, rawArgs: '{bad' },
        ],
      },
      { role: 'tool', toolCallId: 'call_A1', toolName: 'read_file', content: 'contents of a' },
      { role: 'tool', toolCallId: 'call_B2', toolName: 'read_file', content: 'invalid arguments', isError: true },
    ];
    const out = await drain(provider(srv.url), { messages: history, tools: [readFileTool] });
    expect(out.error).toBeUndefined();
    const results = trailingToolResults(srv.requests[0].body);
    expect(results.map((r) => [r.toolCallId, r.content])).toEqual([
      ['call_A1', 'contents of a'],
      ['call_B2', 'invalid arguments'],
    ]);
    const wire = JSON.stringify(requestOf(srv.requests[0].body).messages);
    expect(wire).toContain('call_A1');
    expect(wire).toContain('a.txt');
    if (dialect === 'anthropic') expect(results[1].isError).toBe(true);
  });

  it('retries a 429 that carries Retry-After, honouring it, then succeeds', async () => {
    const srv = await serve((i) =>
      i === 0 ? { kind: 'status', status: 429, headers: { 'retry-after': '0' } } : { kind: 'text', chunks: ['ok'] },
    );
    const out = await drain(provider(srv.url), { messages: HELLO });
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('ok');
    expect(retries(out.events)).toEqual([
      { type: 'retry', attempt: 2, maxAttempts: 4, delayMs: 0, reason: 'rate limited (429): loopback status 429' },
    ]);
    expect(out.events[0].type).toBe('retry');
    expect(srv.requests).toHaveLength(2);
  });

  it('retries a 429 without Retry-After with exponential backoff, then succeeds', async () => {
    const srv = await serve((i) => (i < 2 ? { kind: 'status', status: 429 } : { kind: 'text', chunks: ['ok'] }));
    const out = await drain(provider(srv.url), { messages: HELLO });
    expect(out.error).toBeUndefined();
    const r = retries(out.events) as Array<Extract<StreamEvent, { type: 'retry' }>>;
    expect(r.map((e) => e.attempt)).toEqual([2, 3]);
    expect(r[0].delayMs).toBeGreaterThanOrEqual(5);
    expect(r[0].delayMs).toBeLessThanOrEqual(6);
    expect(r[1].delayMs).toBeGreaterThanOrEqual(10);
    expect(r[1].delayMs).toBeLessThanOrEqual(12);
    expect(srv.requests).toHaveLength(3);
  });

  it('gives up on a persistent 500 after the bounded retries, naming provider and model', async () => {
    const srv = await serve(() => ({ kind: 'status', status: 500 }));
    const out = await drain(provider(srv.url), { messages: HELLO });
    expect(srv.requests).toHaveLength(4);
    expect(retries(out.events)).toHaveLength(3);
    expect(out.error).toBeInstanceOf(ProviderError);
    const err = out.error as ProviderError;
    expect(err.kind).toBe('server');
    expect(err.status).toBe(500);
    expect(err.message).toBe(`provider "local" (${type}/test-model): server error (500): loopback status 500 — gave up after 4 attempts`);
  });

  it('fails at once on 401 with a message naming provider, model and key variable but never the key', async () => {
    const body =
      dialect === 'openai'
        ? JSON.stringify({ error: { message: `Incorrect API key provided: ${SECRET}`, type: 'invalid_request_error' } })
        : JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${SECRET}` } });
    const srv = await serve(() => ({ kind: 'status', status: 401, body }));
    const out = await drain(provider(srv.url), { messages: HELLO });
    expect(srv.requests).toHaveLength(1);
    expect(retries(out.events)).toHaveLength(0);
    const err = out.error as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe('auth');
    expect(err.message).toBe(`provider "local" (${type}/test-model): authentication failed (401) — check the API key in ${KEY_ENV}`);
    expect(err.message).not.toContain(SECRET);
    expect(String(err.stack)).not.toContain(SECRET);
    expect(String(err.stack)).not.toMatch(/\n\s+at /);
  });

  it('reports 404 as a permanent not-found error naming the model', async () => {
    const srv = await serve(() => ({ kind: 'status', status: 404 }));
    const out = await drain(provider(srv.url), { messages: HELLO });
    expect(srv.requests).toHaveLength(1);
    const err = out.error as ProviderError;
    expect(err.kind).toBe('not_found');
    expect(err.message).toContain('model "test-model"');
    expect(err.message).toContain(srv.url);
  });

  it('reports 403 as a permanent access error naming the model and key variable', async () => {
    const srv = await serve(() => ({ kind: 'status', status: 403 }));
    const out = await drain(provider(srv.url), { messages: HELLO });
    const err = out.error as ProviderError;
    expect(err.kind).toBe('auth');
    expect(err.message).toBe(
      `provider "local" (${type}/test-model): access denied (403) — the API key in ${KEY_ENV} is not allowed to use model "test-model"`,
    );
    expect(srv.requests).toHaveLength(1);
  });

  it('retries an error the server sends inside the stream before any text', async () => {
    const inBand =
      dialect === 'openai'
        ? 'data: {"error": {"message": "overloaded", "type": "server_error"}}\n\n'
        : 'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n';
    const srv = await serve((i) =>
      i === 0
        ? { kind: 'status', status: 200, headers: { 'content-type': 'text/event-stream' }, body: inBand }
        : { kind: 'text', chunks: ['recovered'] },
    );
    const out = await drain(provider(srv.url), { messages: HELLO });
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('recovered');
    expect(retries(out.events)).toHaveLength(1);
  });

  it('reports a malformed stream as a permanent error', async () => {
    const srv = await serve(() => ({
      kind: 'status',
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: dialect === 'openai' ? 'data: {"garbage": true}\n\n' : 'event: message_start\ndata: {"garbage": true}\n\n',
    }));
    const out = await drain(provider(srv.url), { messages: HELLO });
    const err = out.error as ProviderError;
    expect(err.kind).toBe('malformed');
    expect(err.retryable).toBe(false);
    expect(srv.requests).toHaveLength(1);
  });

  it('ends with a network error, without retrying, when the connection resets mid-stream', async () => {
    const srv = await serve(() => ({ kind: 'reset', afterChunks: ['Hel', 'lo'] }));
    const out = await drain(provider(srv.url), { messages: HELLO });
    expect(out.text).toBe('Hello');
    expect(srv.requests).toHaveLength(1);
    expect(retries(out.events)).toHaveLength(0);
    const err = out.error as ProviderError;
    expect(err.kind).toBe('network');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('the connection broke while the reply was streaming');
  });

  it('retries a connection reset that happens before any byte', async () => {
    const srv = await serve((i) => (i === 0 ? { kind: 'reset', afterChunks: [] } : { kind: 'text', chunks: ['fine'] }));
    const out = await drain(provider(srv.url), { messages: HELLO });
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('fine');
    expect(retries(out.events)).toHaveLength(1);
  });

  it('aborts mid-stream promptly and the server sees the connection close', async () => {
    const srv = await serve(() => ({ kind: 'text', chunks: Array.from({ length: 50 }, (_, i) => `w${i} `), delayMs: 20 }));
    const ac = new AbortController();
    let abortedAt = 0;
    const out = await drain(provider(srv.url), { messages: HELLO, signal: ac.signal }, (e) => {
      if (e.type === 'text' && abortedAt === 0) {
        abortedAt = Date.now();
        ac.abort();
      }
    });
    const elapsed = Date.now() - abortedAt;
    expect((out.error as ProviderError).kind).toBe('aborted');
    expect(elapsed).toBeLessThan(500);
    expect(out.text.length).toBeLessThan(20);
    await expect(srv.requests[0].ended).resolves.toBe('client_closed');
  });

  it('aborts a request the server never answers', async () => {
    const ac = new AbortController();
    // Timed from the abort, once the server holds the request: the first call also loads
    // the AI SDK, which on a loaded machine alone can take longer than the bound.
    let abortedAt = 0;
    const srv = await serve(() => {
      setTimeout(() => {
        abortedAt = Date.now();
        ac.abort();
      }, 50);
      return { kind: 'hang' };
    });
    const out = await drain(provider(srv.url), { messages: HELLO, signal: ac.signal });
    expect((out.error as ProviderError).kind).toBe('aborted');
    expect(abortedAt).toBeGreaterThan(0);
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    await expect(srv.requests[0].ended).resolves.toBe('client_closed');
  });

  it('aborts while waiting between retries', async () => {
    const srv = await serve(() => ({ kind: 'status', status: 503, headers: { 'retry-after': '20' } }));
    const ac = new AbortController();
    const started = Date.now();
    const out = await drain(provider(srv.url), { messages: HELLO, signal: ac.signal }, (e) => {
      if (e.type === 'retry') setTimeout(() => ac.abort(), 10);
    });
    expect((out.error as ProviderError).kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(srv.requests).toHaveLength(1);
  });

  it('gives up with timeout_secs when the server goes quiet', async () => {
    const srv = await serve(() => ({ kind: 'hang' }));
    const out = await drain(provider(srv.url, { timeout_secs: 0.1 }, { ...ENV, ARBOR_RETRY_MAX: '1' }), { messages: HELLO });
    const err = out.error as ProviderError;
    expect(err.kind).toBe('network');
    expect(err.message).toContain('no response for 0.1 s');
    expect(srv.requests).toHaveLength(2);
  });
});

describe('connection failures and configuration', () => {
  beforeAll(() => setLanguage('en'));

  it('retries a refused connection, then reports it naming the URL', async () => {
    const srv = await startLoopbackModel({ dialect: 'openai', respond: () => ({ kind: 'text', chunks: ['x'] }) });
    const url = srv.url;
    await srv.close();
    const p = createProvider({ name: 'gone', type: 'openai-compatible', base_url: url, model: 'm', headers: {} }, ENV);
    const out = await drain(p, { messages: HELLO });
    const err = out.error as ProviderError;
    expect(err.kind).toBe('network');
    expect(err.message).toContain(`provider "gone" (openai-compatible/m): cannot reach ${url}`);
    expect(out.events.filter((e) => e.type === 'retry')).toHaveLength(3);
  });

  it('type openai speaks chat completions with the key from OPENAI_API_KEY by default', async () => {
    const srv = await startLoopbackModel({
      dialect: 'openai',
      respond: () => ({ kind: 'text', chunks: ['hi'], usage: { input: 3, output: 1 } }),
    });
    try {
      const p = createProvider(
        { name: 'oa', type: 'openai', base_url: srv.url, model: 'gpt-test', headers: {} },
        { OPENAI_API_KEY: SECRET, ARBOR_RETRY_BASE_MS: '5' },
      );
      const out = await drain(p, { messages: HELLO });
      expect(out.error).toBeUndefined();
      expect(out.text).toBe('hi');
      expect(out.events).toContainEqual({ type: 'usage', usage: { inputTokens: 3, outputTokens: 1 } });
      expect(srv.requests[0].path).toBe('/v1/chat/completions');
      expect(srv.requests[0].headers.authorization).toBe(`Bearer ${SECRET}`);
    } finally {
      await srv.close();
    }
  });

  it('a missing key for anthropic is a config error naming the variable, before any request', async () => {
    const p = createProvider({ name: 'claude', type: 'anthropic', model: 'claude-x', headers: {} }, {});
    const out = await drain(p, { messages: HELLO });
    const err = out.error as ProviderError;
    expect(err.kind).toBe('config');
    expect(err.message).toBe('provider "claude" (anthropic/claude-x): no API key: set the environment variable ANTHROPIC_API_KEY');
  });

  it('openai-compatible without base_url is a config error', async () => {
    const p = createProvider({ name: 'local', type: 'openai-compatible', model: 'm', headers: {} }, {});
    const out = await drain(p, { messages: HELLO });
    expect((out.error as ProviderError).kind).toBe('config');
    expect((out.error as ProviderError).message).toContain('base_url is required');
  });
});
