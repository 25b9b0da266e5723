// The quota banner: one line per held provider with its reset time on the local clock and a
// countdown that moves, the rest summed up, and a height the live region budgets for.
import React from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { setLanguage } from '../../src/i18n/index.js';
import { clockTime, waitText, type QuotaPause } from '../../src/model/quota.js';
import { QuotaBanner, quotaBannerHeight } from '../../src/ui/components/QuotaBanner.js';
import { FakeRuntime } from './fakeRuntime.js';
import { plain } from './harness.js';
import { renderSettled, settle } from './settle.js';

beforeAll(() => setLanguage('en'));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const pause = (over: Partial<QuotaPause>): QuotaPause => ({
  provider: 'openai',
  label: 'openai/gpt-test',
  reason: 'rate_limit',
  resetAt: Date.now() + 130_500,
  resetKnown: true,
  runIds: ['a', 'b'],
  ...over,
});

describe('quota banner', () => {
  it('names the provider, the runs held, the reset clock time and the wait, and counts down', async () => {
    // The countdown's clock is a fake one: a second passes when the test says so.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const runtime = new FakeRuntime();
    const resetAt = Date.now() + 2600;
    runtime.store.setState({ quotaPauses: [pause({ resetAt })] });
    const app = await renderSettled(<QuotaBanner store={runtime.store} width={200} />);
    expect(plain(app.lastFrame())).toBe(
      `⏸ Rate limit on openai (openai/gpt-test): 2 runs paused until ${clockTime(resetAt)} (in 3s) · resumes by itself · /agents: resume or kill earlier`,
    );
    await settle(() => vi.advanceTimersByTime(1100));
    expect(plain(app.lastFrame())).toMatch(/\(in [12]s\)/);
  });

  it('says when a quota is used up, when no reset time was given, and when the limit has lifted', () => {
    const runtime = new FakeRuntime();
    runtime.store.setState({
      quotaPauses: [
        pause({ reason: 'exhausted', runIds: ['a'] }),
        pause({ provider: 'claude', label: 'anthropic/c', resetKnown: false, reason: 'exhausted' }),
        pause({ provider: 'third', resetAt: Date.now() - 10 }),
      ],
    });
    const app = render(<QuotaBanner store={runtime.store} width={200} />);
    const lines = plain(app.lastFrame()).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('⏸ Quota used up on openai (openai/gpt-test): 1 run paused until it resets at');
    expect(lines[1]).toContain('⏸ Limit on claude (anthropic/c), no reset time given: 2 runs paused, trying again at');
    expect(lines[2]).toBe('… and 1 more provider');
    expect(quotaBannerHeight(runtime.store.getState().quotaPauses)).toBe(3);
    expect(quotaBannerHeight(undefined)).toBe(0);
    expect(quotaBannerHeight([])).toBe(0);
  });

  it('draws nothing without a held provider; waits read as h/m/s', () => {
    const runtime = new FakeRuntime();
    const app = render(<QuotaBanner store={runtime.store} width={80} />);
    expect(plain(app.lastFrame())).toBe('');
    expect(waitText(130_000)).toBe('2m 10s');
    expect(waitText(3_725_000)).toBe('1h 2m');
    expect(waitText(1)).toBe('1s');
  });
});
