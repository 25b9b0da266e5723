// Silent servers: a server that accepts and never answers, or answers and then stops, is cut
// by the first-byte and idle timeouts (small here so the test is fast), and every retry is
// announced as a retry event; text already shown is never retried.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/config/types.js';
import { setLanguage } from '../../src/i18n/index.js';
import { providerTimeouts } from '../../src/config/defaults.js';
import { createProvider } from '../../src/providers/createProvider.js';
import { ProviderError, type ModelMessage } from '../../src/providers/types.js';
import { startLoopbackModel, type LoopbackDialect, type LoopbackModel, type LoopbackReply } from '../support/loopbackModel.js';
import { drain } from './streamHelpers.js';

const ENV = { ARBOR_RETRY_BASE_MS: '5', ARBOR_RETRY_MAX: '2', K: 'sk-test-0123456789abcdef' };
const HELLO: ModelMessage[] = [{ role: 'user', content: 'hi' }];

beforeAll(() => setLanguage('en'));

let server: LoopbackModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cases: Array<{ dialect: LoopbackDialect; type: ProviderConfig['type'] }> = [
  { dialect: 'openai', type: 'openai-compatible' },
  { dialect: 'anthropic', type: 'anthropic' },
];

describe.each(cases)('$type against a silent $dialect server', ({ dialect, type }) => {
  async function run(respond: (i: number) => LoopbackReply, extra: Partial<ProviderConfig>) {
    server = await startLoopbackModel({ dialect, respond: ({ index }) => respond(index) });
    const p = createProvider(
      {
        name: 'remote',
        type,
        base_url: server.url,
        model: 'm',
        api_key_env: 'K',
        headers: {},
        first_byte_timeout_secs: 60,
        idle_timeout_secs: 120,
        ...extra,
      },
      ENV,
    );
    const started = Date.now();
    const out = await drain(p, { messages: HELLO });
    const retries = out.events.filter((e) => e.type === 'retry') as Array<{ reason: string; attempt: number }>;
    return { ...out, retries, ms: Date.now() - started, requests: server.requests };
  }

  it('timeout_secs = 5,000,000 does not cut a reply at once (no timer overflow)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const out = await run(() => ({ kind: 'text', chunks: ['slow ', 'but ', 'fine'], delayMs: 50 }), {
      first_byte_timeout_secs: undefined,
      idle_timeout_secs: undefined,
      timeout_secs: 5_000_000,
    });
    process.off('warning', onWarning);
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('slow but fine');
    expect(out.requests).toHaveLength(1);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('a server that accepts and never answers is cut after first_byte_timeout_secs, each retry announced', async () => {
    const out = await run(() => ({ kind: 'silent' }), { first_byte_timeout_secs: 0.2 });
    const err = out.error as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe('network');
    expect(err.message).toContain('no response for 0.2 s (first_byte_timeout_secs) — gave up after 3 attempts');
    // Three attempts, each cut by the timeout (counted on the client: under load a request
    // cut early may not have reached the server's request log).
    expect(out.requests.length).toBeGreaterThanOrEqual(1);
    expect(out.retries.map((r) => r.attempt)).toEqual([2, 3]);
    expect(out.retries[0].reason).toBe('no response for 0.2 s (first_byte_timeout_secs)');
    expect(out.ms).toBeLessThan(5000);
  });

  it('headers and then nothing is still "no first byte", and a later try that answers wins', async () => {
    const out = await run((i) => (i === 0 ? { kind: 'hang' } : { kind: 'text', chunks: ['ok'] }), { first_byte_timeout_secs: 0.2 });
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('ok');
    expect(out.retries).toHaveLength(1);
    expect(out.requests[0].outcome).toBe('client_closed');
  });

  it('a reply that stops mid-stream is cut after idle_timeout_secs and not retried (its text was shown)', async () => {
    const out = await run(() => ({ kind: 'stall', afterChunks: ['Hel', 'lo'] }), { idle_timeout_secs: 0.2 });
    expect(out.text).toBe('Hello');
    const err = out.error as ProviderError;
    expect(err.kind).toBe('network');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('the reply stopped: nothing for 0.2 s (idle_timeout_secs)');
    expect(out.requests).toHaveLength(1);
    expect(out.retries).toHaveLength(0);
  });

  it('a reply cut before any text (only its opening chunk, naming the model, came) is retried', async () => {
    const out = await run((i) => (i === 0 ? { kind: 'stall', afterChunks: [] } : { kind: 'text', chunks: ['ok'] }), {
      idle_timeout_secs: 0.2,
    });
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('ok');
    expect(out.retries).toHaveLength(1);
    expect(out.events.filter((e) => e.type === 'model').map((e) => (e as { modelId: string }).modelId)).toEqual(['m', 'm']);
  });

  it('the idle timeout does not cut a slow but steady reply', async () => {
    // Each gap (150 ms) leaves the idle timeout 750 ms of slack for a loaded machine, while the
    // whole reply (1.2 s) still outlasts it: a timer that measured the reply, not the gaps, fails.
    const out = await run(() => ({ kind: 'text', chunks: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], delayMs: 150 }), {
      first_byte_timeout_secs: 0.9,
      idle_timeout_secs: 0.9,
    });
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('abcdefgh');
  });
});

describe('timeout defaults', () => {
  it('60 s to the first event and 120 s between events, unless configured (timeout_secs stands for both)', () => {
    const base = { name: 'x', type: 'openai' as const, model: 'm', headers: {} } as ProviderConfig;
    expect(providerTimeouts(base)).toEqual({ firstByteSecs: 60, idleSecs: 120 });
    expect(providerTimeouts({ ...base, timeout_secs: 5 })).toEqual({ firstByteSecs: 5, idleSecs: 5 });
    expect(providerTimeouts({ ...base, timeout_secs: 5, idle_timeout_secs: 9 })).toEqual({ firstByteSecs: 5, idleSecs: 9 });
  });
});
