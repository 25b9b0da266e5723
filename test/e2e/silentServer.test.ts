// A server that accepts and never answers: with small configured timeouts the run gives up
// in seconds, and every retry is announced — on stderr headless, in the status bar in the
// chat.
import { afterEach, describe, expect } from 'vitest';
import { disposeAllTerminals } from '../support/terminal.js';
import { fakeProviderConfig, writeConfig } from '../support/tempHome.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

/** The loopback config with the provider's timeouts set (they live in its table). */
function withTimeouts(url: string): string {
  return fakeProviderConfig(url).replace('[agents.main]', 'first_byte_timeout_secs = 0.3\nidle_timeout_secs = 0.3\n\n[agents.main]');
}

describe('silent servers', () => {
  ptyTest(
    'headless: each retry is announced on stderr, then the run fails naming the timeout',
    PROCESS_TEST_TIMEOUT,
    async ({ h, withModel, arbor }) => {
      const m = await withModel(() => ({ kind: 'silent' }));
      writeConfig(h.dir, withTimeouts(m.url));
      const started = Date.now();
      const r = await arbor(['-p', 'hello?']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      const retries = lines.filter((l) => l.startsWith('no response for 0.3 s (first_byte_timeout_secs) — retry '));
      // The first retry is 1 of 3 (#20: the notice used to count attempts, opening at 2/4).
      expect(retries.map((l) => /retry (\d)\/3/.exec(l)?.[1])).toEqual(['1', '2', '3']);
      expect(r.stderr).toContain('no response for 0.3 s (first_byte_timeout_secs) — gave up after 4 attempts');
      expect(Date.now() - started).toBeLessThan(20000);
    },
  );

  ptyTest(
    'headless: a reply that stops mid-stream fails after idle_timeout_secs, its text kept out of stdout',
    PROCESS_TEST_TIMEOUT,
    async ({ h, withModel, arbor }) => {
      const m = await withModel(() => ({ kind: 'stall', afterChunks: ['partial '] }));
      writeConfig(h.dir, withTimeouts(m.url));
      const r = await arbor(['-p', 'hello?']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('the reply stopped: nothing for 0.3 s (idle_timeout_secs)');
      expect(m.requests).toHaveLength(1);
    },
  );

  ptyTest('chat: the status bar announces the retries', PTY_TEST_TIMEOUT, async ({ h, withModel, startArbor }) => {
    const m = await withModel(() => ({ kind: 'silent' }));
    writeConfig(h.dir, fakeProviderConfig(m.url).replace('[agents.main]', 'first_byte_timeout_secs = 1\n\n[agents.main]'));
    const term = await startArbor();
    await send(term, 'anyone there?');
    await term.waitForText(/↻ .*no response for 1 s \(first_byte_timeout_secs\) — retry 1\/3/, 10000, { where: 'screen' });
    await term.waitForText(/gave up after 4 attempts/, 20000);
  });
});
