import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { createProvider, estimateCostUsd } from '../../src/providers/createProvider.js';
import { providerLabel } from '../../src/providers/label.js';
import { parseRetryAfter, redact } from '../../src/providers/errors.js';
import { MAX_DELAY_MS, retryDelayMs } from '../../src/providers/retry.js';

beforeAll(() => setLanguage('en'));

describe('retry delays', () => {
  it('doubles from the base delay with bounded jitter, capped at 30 s', () => {
    expect(retryDelayMs(1, 500, undefined, () => 0)).toBe(500);
    expect(retryDelayMs(2, 500, undefined, () => 0)).toBe(1000);
    expect(retryDelayMs(3, 500, undefined, () => 0)).toBe(2000);
    expect(retryDelayMs(3, 500, undefined, () => 1)).toBe(2400);
    expect(retryDelayMs(20, 500, undefined, () => 0)).toBe(MAX_DELAY_MS);
  });

  it('uses the server Retry-After instead, capped at 30 s', () => {
    expect(retryDelayMs(1, 500, 2000)).toBe(2000);
    expect(retryDelayMs(1, 500, 120_000)).toBe(MAX_DELAY_MS);
  });

  it('reads Retry-After in seconds, as an HTTP date, and retry-after-ms', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter({ 'Retry-After': '3' }, now)).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }, now)).toBe(10_000);
    expect(parseRetryAfter({ 'retry-after': '3600' }, now)).toBe(30_000);
    expect(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('redaction', () => {
  it('removes the known key and anything shaped like a key or bearer token', () => {
    expect(redact('bad key abcd1234efgh here', ['abcd1234efgh'])).toBe('bad key [redacted] here');
    expect(redact('Incorrect API key provided: sk-proj-AbCdEf123456')).toBe('Incorrect API key provided: [redacted]');
    expect(redact('Authorization: Bearer xyz.abc')).toBe('Authorization: Bearer [redacted]');
    expect(redact('x-api-key: "top-secret"')).toBe('x-api-key: "[redacted]"');
  });
});

describe('createProvider', () => {
  it('labels providers as <type>/<model>', () => {
    expect(providerLabel({ type: 'openai-compatible', model: 'qwen3:8b' })).toBe('openai-compatible/qwen3:8b');
  });

  it('builds the offline provider for type offline and network providers otherwise', () => {
    const off = createProvider({ name: 'offline', type: 'offline', model: 'offline', headers: {} }, {});
    expect([off.name, off.type, off.model]).toEqual(['offline', 'offline', 'offline']);
    const net = createProvider({ name: 'local', type: 'openai-compatible', model: 'm', base_url: 'http://x/v1', headers: {} }, {});
    expect([net.name, net.type, net.model]).toEqual(['local', 'openai-compatible', 'm']);
  });
});

describe('estimateCostUsd', () => {
  it('prices input and output per million tokens', () => {
    const pricing = { input_per_mtok: 3, output_per_mtok: 15 };
    expect(estimateCostUsd(pricing, { inputTokens: 1_000_000, outputTokens: 0 })).toBeCloseTo(3);
    expect(estimateCostUsd(pricing, { inputTokens: 2000, outputTokens: 1000 })).toBeCloseTo(0.006 + 0.015);
  });

  it('is zero without pricing', () => {
    expect(estimateCostUsd(undefined, { inputTokens: 5000, outputTokens: 5000 })).toBe(0);
  });
});
