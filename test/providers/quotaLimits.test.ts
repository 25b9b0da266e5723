// Rate and quota limits: the reset headers and quota bodies servers send, parsed, and the
// real providers against loopback servers turning a limit that outlasts the retry budget
// (or a used-up quota) into a QuotaError at once, with the reset time, instead of retrying.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/config/types.js';
import { setLanguage } from '../../src/i18n/index.js';
import { clockTime } from '../../src/model/quota.js';
import { createProvider } from '../../src/providers/createProvider.js';
import { QuotaError } from '../../src/providers/providerError.js';
import { isQuotaExhausted, parseDuration, parseLimitReset } from '../../src/providers/rateLimits.js';
import { ProviderError, type ModelMessage } from '../../src/providers/types.js';
import { startLoopbackModel, type LoopbackDialect, type LoopbackModel, type LoopbackReply } from '../support/loopbackModel.js';
import { drain } from './streamHelpers.js';

beforeAll(() => setLanguage('en'));

const NOW = Date.parse('2025-01-01T00:00:00Z');

/** A server's per-limit reset headers, each family's names written once: OpenAI sends
 * x-ratelimit-{reset,remaining}-<limit>, Anthropic anthropic-ratelimit-<limit>-{reset,remaining}. */
function limitHeaders(
  dialect: LoopbackDialect,
  limits: Partial<Record<'requests' | 'tokens', [reset: string, remaining?: string]>>,
): Record<string, string> {
  const name = (limit: string, field: 'reset' | 'remaining') =>
    dialect === 'openai' ? `x-ratelimit-${field}-${limit}` : `anthropic-ratelimit-${limit}-${field}`;
  const headers: Record<string, string> = {};
  for (const [limit, [reset, remaining]] of Object.entries(limits)) {
    headers[name(limit, 'reset')] = reset;
    if (remaining !== undefined) headers[name(limit, 'remaining')] = remaining;
  }
  return headers;
}

describe('reset headers', () => {
  it("reads OpenAI's duration form", () => {
    const written = ['1m30s', '6ms', '0.5s', '2h0m0s', 'soon', '1m30'];
    expect(written.map((s) => parseDuration(s))).toStrictEqual([90_000, 6, 500, 7_200_000, undefined, undefined]);
  });

  it('Retry-After (seconds or HTTP date) and retry-after-ms win over reset headers, uncapped', () => {
    expect(parseLimitReset({ 'Retry-After': '120', 'x-ratelimit-reset-requests': '1s' }, NOW)).toEqual({
      resetAt: NOW + 120_000,
      waitMs: 120_000,
    });
    expect(parseLimitReset({ 'retry-after': 'Wed, 01 Jan 2025 00:01:00 GMT' }, NOW)?.waitMs).toBe(60_000);
    expect(parseLimitReset({ 'retry-after-ms': '250', 'retry-after': '9' }, NOW)?.waitMs).toBe(250);
  });

  it('OpenAI x-ratelimit-reset-*: the one whose remaining count is 0, else the latest', () => {
    const headers = limitHeaders('openai', { requests: ['1m30s', '0'], tokens: ['6m0s', '5000'] });
    expect(parseLimitReset(headers, NOW)?.waitMs).toBe(90_000);
    expect(parseLimitReset(limitHeaders('openai', { requests: ['6ms'], tokens: ['2s'] }), NOW)?.waitMs).toBe(2000);
  });

  it('Anthropic anthropic-ratelimit-*-reset RFC 3339 times', () => {
    const headers = limitHeaders('anthropic', { requests: ['2025-01-01T00:00:30Z', '10'], tokens: ['2025-01-01T00:02:10Z', '0'] });
    expect(parseLimitReset(headers, NOW)).toEqual({ resetAt: NOW + 130_000, waitMs: 130_000 });
  });

  it('a plain x-ratelimit-reset: epoch seconds, epoch milliseconds, or seconds from now', () => {
    expect(parseLimitReset({ 'x-ratelimit-reset': String(NOW / 1000 + 45) }, NOW)?.waitMs).toBe(45_000);
    expect(parseLimitReset({ 'x-ratelimit-reset': String(NOW + 5000) }, NOW)?.waitMs).toBe(5000);
    expect(parseLimitReset({ 'x-ratelimit-reset': '7' }, NOW)?.waitMs).toBe(7000);
  });

  it('nothing usable is undefined; a reset in the past is now', () => {
    expect(parseLimitReset(undefined, NOW)).toBeUndefined();
    expect(parseLimitReset({ 'content-type': 'application/json' }, NOW)).toBeUndefined();
    expect(parseLimitReset(limitHeaders('openai', { requests: ['later'] }), NOW)).toBeUndefined();
    expect(parseLimitReset(limitHeaders('anthropic', { requests: ['2024-12-31T23:00:00Z'] }), NOW)).toEqual({ resetAt: NOW, waitMs: 0 });
  });
});

describe('used-up quota bodies', () => {
  it('OpenAI insufficient_quota, 402 and credit codes say exhausted; a plain rate limit does not', () => {
    const openai = JSON.stringify({
      error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' },
    });
    expect(isQuotaExhausted(429, openai)).toBe(true);
    expect(isQuotaExhausted(402, undefined)).toBe(true);
    expect(isQuotaExhausted(429, JSON.stringify({ error: { code: 'insufficient_credits', message: 'add credits' } }))).toBe(true);
    expect(isQuotaExhausted(429, JSON.stringify({ error: { type: 'rate_limit_error', message: 'slow down' } }))).toBe(false);
    expect(isQuotaExhausted(429, 'not json')).toBe(false);
  });
});

const KEY_ENV = 'ARBOR_TEST_PROVIDER_KEY';
// The wrapper sits through waits up to 300 ms itself; longer ones are the runtime's.
const ENV = { [KEY_ENV]: 'sk-test-0123456789abcdef', ARBOR_RETRY_BASE_MS: '5', ARBOR_RETRY_MAX_WAIT_MS: '300' };
const HELLO: ModelMessage[] = [{ role: 'user', content: 'hi' }];

const cases: Array<{ dialect: LoopbackDialect; type: ProviderConfig['type'] }> = [
  { dialect: 'openai', type: 'openai-compatible' },
  { dialect: 'anthropic', type: 'anthropic' },
];

describe.each(cases)('$type provider: limits past the retry budget', ({ dialect, type }) => {
  let server: LoopbackModel | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function provider(respond: (index: number) => LoopbackReply) {
    server = await startLoopbackModel({ dialect, respond: ({ index }) => respond(index) });
    return createProvider({ name: 'remote', type, base_url: server.url, model: 'm', api_key_env: KEY_ENV, headers: {} }, ENV);
  }

  it('a 429 whose Retry-After outlasts the budget is a QuotaError at once, naming the reset time', async () => {
    const p = await provider(() => ({
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '120' },
      body: '{"error":{"message":"slow down"}}',
    }));
    const before = Date.now();
    const out = await drain(p, { messages: HELLO });
    const after = Date.now();
    expect(server!.requests).toHaveLength(1);
    expect(out.events.filter((e) => e.type === 'retry')).toEqual([]);
    const err = out.error as QuotaError;
    expect(err).toBeInstanceOf(QuotaError);
    expect(err.reason).toBe('rate_limit');
    expect(err.resetAt!).toBeGreaterThanOrEqual(before + 120_000);
    expect(err.resetAt!).toBeLessThanOrEqual(after + 120_000);
    expect(err.message).toContain(
      `provider "remote" (${type}/m): rate limited (429): slow down — the limit resets at ${clockTime(err.resetAt!)} (in 2m 0s)`,
    );
  });

  it('a reset header past the budget is one too; one within it is waited out and retried', async () => {
    const header = limitHeaders(dialect, { requests: [dialect === 'openai' ? '1m30s' : new Date(Date.now() + 90_000).toISOString(), '0'] });
    const p = await provider(() => ({ kind: 'status', status: 429, headers: header }));
    const out = await drain(p, { messages: HELLO });
    expect(out.error).toBeInstanceOf(QuotaError);
    expect(server!.requests).toHaveLength(1);
    await server!.close();

    const short = limitHeaders(dialect, { requests: [dialect === 'openai' ? '50ms' : new Date(Date.now() + 50).toISOString()] });
    const q = await provider((i) => (i === 0 ? { kind: 'status', status: 429, headers: short } : { kind: 'text', chunks: ['ok'] }));
    const again = await drain(q, { messages: HELLO });
    expect(again.error).toBeUndefined();
    expect(again.text).toBe('ok');
    expect(server!.requests).toHaveLength(2);
  });

  it('a used-up quota is a QuotaError at once, without retries, even with no reset time', async () => {
    const body =
      dialect === 'openai'
        ? JSON.stringify({ error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } })
        : JSON.stringify({ type: 'error', error: { type: 'insufficient_quota', message: 'plan used up' } });
    const p = await provider(() => ({ kind: 'status', status: 429, body }));
    const out = await drain(p, { messages: HELLO });
    const err = out.error as QuotaError;
    expect(err).toBeInstanceOf(QuotaError);
    expect(err.reason).toBe('exhausted');
    expect(err.resetAt).toBeUndefined();
    expect(err.message).toMatch(/quota or plan used up \(429\)/);
    expect(server!.requests).toHaveLength(1);
  });

  it('a plain 429 with no reset information is still retried and fails as before', async () => {
    const p = await provider(() => ({ kind: 'status', status: 429 }));
    const out = await drain(p, { messages: HELLO });
    expect(out.error).toBeInstanceOf(ProviderError);
    expect(out.error).not.toBeInstanceOf(QuotaError);
    expect((out.error as Error).message).toContain('gave up after 4 attempts');
  });
});

describe('an in-band used-up quota', () => {
  let server: LoopbackModel | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('an error inside a stream with an insufficient_quota code is a QuotaError, not retried', async () => {
    server = await startLoopbackModel({
      dialect: 'openai',
      respond: () => ({
        kind: 'status',
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: 'data: {"error":{"code":"insufficient_quota","message":"You exceeded your current quota"}}\n\n',
      }),
    });
    const p = createProvider({ name: 'remote', type: 'openai-compatible', base_url: server.url, model: 'm', headers: {} }, ENV);
    const out = await drain(p, { messages: HELLO });
    const err = out.error as QuotaError;
    expect(err).toBeInstanceOf(QuotaError);
    expect(err.reason).toBe('exhausted');
    expect(err.message).toBe('provider "remote" (openai-compatible/m): quota or plan used up (429): You exceeded your current quota');
    expect(server.requests).toHaveLength(1);
  });
});
