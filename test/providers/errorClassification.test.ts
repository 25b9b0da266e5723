// How server errors read and whether they are retried: an in-band stream error with a
// numeric code follows the rules of that HTTP status (OpenRouter's in-band 400 is final),
// a 5xx with a JSON body shows the server's own message, and that message is untrusted
// text (neutralised, no escape sequence survives).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/config/types.js';
import { setLanguage } from '../../src/i18n/index.js';
import { createProvider } from '../../src/providers/createProvider.js';
import { ProviderError, type ModelMessage, type StreamEvent } from '../../src/providers/types.js';
import { startLoopbackModel, type LoopbackDialect, type LoopbackModel, type LoopbackReply } from '../support/loopbackModel.js';
import { drain } from './streamHelpers.js';

const ENV = { ARBOR_RETRY_BASE_MS: '5', ARBOR_RETRY_MAX: '2', K: 'sk-test-0123456789abcdef' };
const HELLO: ModelMessage[] = [{ role: 'user', content: 'hi' }];
const SSE = { 'content-type': 'text/event-stream' };
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

beforeAll(() => setLanguage('en'));

let server: LoopbackModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(dialect: LoopbackDialect, type: ProviderConfig['type'], respond: (i: number) => LoopbackReply) {
  server = await startLoopbackModel({ dialect, respond: ({ index }) => respond(index) });
  const p = createProvider({ name: 'remote', type, base_url: server.url, model: 'm', api_key_env: 'K', headers: {} }, ENV);
  const out = await drain(p, { messages: HELLO });
  return { ...out, requests: server.requests.length, retries: out.events.filter((e: StreamEvent) => e.type === 'retry') };
}

describe('in-band stream errors with a numeric code', () => {
  it('OpenRouter\'s {"error":{"code":400}} inside the stream is a final 400, not retried', async () => {
    const body = 'data: {"error":{"code":400,"message":"Token limit reached","metadata":{"provider_name":"x"}}}\n\n';
    const out = await run('openai', 'openai-compatible', () => ({ kind: 'status', status: 200, headers: SSE, body }));
    const err = out.error as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(out.requests).toBe(1);
    expect(out.retries).toHaveLength(0);
    expect(err.retryable).toBe(false);
    expect(err.status).toBe(400);
    expect(err.message).toBe('provider "remote" (openai-compatible/m): request rejected (400): Token limit reached');
  });

  it('an in-band code 503 is retried like an HTTP 503, and the retry says why', async () => {
    const body = 'data: {"error":{"code":503,"message":"No instances available"}}\n\n';
    const out = await run('openai', 'openai-compatible', (i) =>
      i === 0 ? { kind: 'status', status: 200, headers: SSE, body } : { kind: 'text', chunks: ['ok'] },
    );
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('ok');
    expect(out.requests).toBe(2);
    expect(out.retries).toHaveLength(1);
    expect((out.retries[0] as { reason: string }).reason).toBe('server error (503): No instances available');
  });

  it('an in-band 429 code is a rate limit (retried), a 401 code an auth error (not retried)', async () => {
    const rate = await run('openai', 'openai-compatible', (i) =>
      i === 0
        ? { kind: 'status', status: 200, headers: SSE, body: 'data: {"error":{"code":429,"message":"slow down"}}\n\n' }
        : { kind: 'text', chunks: ['ok'] },
    );
    expect(rate.retries).toHaveLength(1);
    expect(rate.text).toBe('ok');
    await server?.close();
    const auth = await run('openai', 'openai-compatible', () => ({
      kind: 'status',
      status: 200,
      headers: SSE,
      body: 'data: {"error":{"code":"401","message":"bad key"}}\n\n',
    }));
    expect((auth.error as ProviderError).kind).toBe('auth');
    expect(auth.requests).toBe(1);
  });
});

describe.each([
  { dialect: 'anthropic' as const, type: 'anthropic' as const },
  { dialect: 'openai' as const, type: 'openai-compatible' as const },
])('a 5xx with a JSON body ($type)', ({ dialect, type }) => {
  it("529 Overloaded shows the server's message, after the retries", async () => {
    const body = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const out = await run(dialect, type, () => ({ kind: 'status', status: 529, body }));
    const err = out.error as ProviderError;
    expect(out.requests).toBe(3);
    expect(err.kind).toBe('server');
    expect(err.status).toBe(529);
    expect(err.message).toBe(`provider "remote" (${type}/m): server error (529): Overloaded — gave up after 3 attempts`);
    expect((out.retries[0] as { reason: string }).reason).toBe('server error (529): Overloaded');
  });

  it('a server message is untrusted: escape sequences in it arrive neutralised', async () => {
    const body = JSON.stringify({ error: { message: 'boom \u001b]52;c;cHduZWQ=\u0007\u001b]0;t\u0007\u009b2J', type: 'server_error' } });
    const out = await run(dialect, type, () => ({ kind: 'status', status: 500, body }));
    const err = out.error as ProviderError;
    expect(err.message).toContain('boom ␛]52;c;cHduZWQ=␇␛]0;t␇␛[2J');
    expect(err.message).not.toMatch(ACTIVE);
    for (const r of out.retries) expect((r as { reason: string }).reason).not.toMatch(ACTIVE);
  });

  it('a 5xx without a JSON body keeps the plain "server error (N)"', async () => {
    const out = await run(dialect, type, () => ({ kind: 'status', status: 502, body: '<html>bad gateway</html>' }));
    expect((out.error as ProviderError).message).toBe(`provider "remote" (${type}/m): server error (502) — gave up after 3 attempts`);
  });
});
