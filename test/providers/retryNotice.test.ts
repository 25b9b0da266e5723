// The retry notice counts retries, not attempts (issue #20 wording): the first retry of
// three reads `retry 1/3`, in English and Spanish, from the events withRetry really sends.
import { afterAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { retryNoticeText, withRetry } from '../../src/providers/retry.js';
import { ProviderError, type ModelProvider, type StreamEvent } from '../../src/providers/types.js';

afterAll(() => setLanguage('en'));

/** Fails with a retryable server error `failures` times, then answers. */
function flaky(failures: number): ModelProvider {
  let calls = 0;
  return {
    name: 'p',
    type: 'openai-compatible',
    model: 'm',
    async *stream(): AsyncGenerator<StreamEvent> {
      if (calls++ < failures) {
        throw new ProviderError({ kind: 'server', message: 'overloaded', providerName: 'p', model: 'm', retryable: true, status: 503 });
      }
      yield { type: 'text', delta: 'ok' };
    },
  } as ModelProvider;
}

async function notices(failures: number): Promise<string[]> {
  const out: string[] = [];
  const provider = withRetry(flaky(failures), { maxRetries: 3, baseDelayMs: 0, random: () => 0 });
  for await (const ev of provider.stream({ messages: [], tools: [], signal: new AbortController().signal })) {
    if (ev.type === 'retry') out.push(retryNoticeText(ev));
  }
  return out;
}

describe('retry notice', () => {
  it('counts the first retry as 1, of the retries there can be', async () => {
    setLanguage('en');
    expect(await notices(3)).toEqual(['overloaded — retry 1/3 in 0 s', 'overloaded — retry 2/3 in 0 s', 'overloaded — retry 3/3 in 0 s']);
    setLanguage('es');
    expect(await notices(1)).toEqual(['overloaded — reintento 1/3 en 0 s']);
  });
});
