// A reset too far off to wait for (issue #19): Retry-After 1e30, a reset in the year 9999 or
// 35 days away would overflow Node's timer and re-send at once, hundreds of times. They are
// "no usable reset time": the probe schedule, with a readable notice. The loopback server
// counts the requests and when each came.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import type { LoopbackReply } from '../../support/loopbackModel.js';
import { makeFixture, text, until, type Fixture } from '../../helpers/runtimeFixture.js';

beforeAll(() => setLanguage('en'));

let fx: Fixture | undefined;

const PROBE_MS = 300;
const ENV = { ARBOR_RETRY_BASE_MS: '5', ARBOR_RETRY_MAX_WAIT_MS: '200', ARBOR_QUOTA_PROBE_MS: String(PROBE_MS) };
const notices = (f: Fixture) => f.runtime.store.getState().transcript.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));

const cases: Array<[string, () => Record<string, string>]> = [
  ['Retry-After: 1e30', () => ({ 'retry-after': '1e30' })],
  ['a reset in the year 9999', () => ({ 'x-ratelimit-reset': '9999-12-31T23:59:59Z' })],
  ['Retry-After 35 days', () => ({ 'retry-after': String(35 * 86400) })],
];

describe('resets beyond the horizon', () => {
  for (const [name, headers] of cases) {
    it(`${name}: one request, then a probe after the probe wait, never a storm`, async () => {
      const at: number[] = [];
      fx = await makeFixture({
        runtime: { interactive: false, waitOnQuota: true, env: ENV },
        respond: ({ index }): LoopbackReply => {
          at.push(Date.now());
          return index < 2
            ? { kind: 'status', status: 429, headers: headers(), body: '{"error":{"message":"slow down","type":"rate_limit_error"}}' }
            : text('back again');
        },
      });
      const turn = fx.runtime.startTurn('hi');
      await until(() => (fx!.runtime.store.getState().quotaPauses ?? []).length === 1, 5000, 'the banner');
      expect(fx.runtime.store.getState().quotaPauses![0]).toMatchObject({ resetKnown: false });
      await turn;
      const root = fx.runtime.store.getState().runs.values()[0];
      expect(root.result).toBe('back again');
      // Timers never fire early: each refusal waited the probe (then its double) first.
      expect(fx.server.requests).toHaveLength(3);
      expect(at[1] - at[0]).toBeGreaterThanOrEqual(PROBE_MS - 5);
      expect(at[2] - at[1]).toBeGreaterThanOrEqual(2 * PROBE_MS - 5);
      const said = notices(fx).join('\n');
      expect(said).toContain('the reset time it named is more than 7 days away or not a time: its runs are paused and try again at');
      expect(said).not.toMatch(/NaN|e\+\d/);
    });
  }
});
