// End to end: a provider's rate limit that outlasts the retry budget. In the chat a child is
// held (banner with the provider and the reset time) and resumes by itself; headless -p
// fails without --wait-on-quota and waits with it.
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText, trailingToolResults, type LoopbackIncoming, type LoopbackReply } from '../support/loopbackModel.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, sandbox, send, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const tooMany = (headers: Record<string, string>): LoopbackReply => ({
  kind: 'status',
  status: 429,
  headers,
  body: '{"error":{"message":"slow down","type":"rate_limit_error"}}',
});

/** The root spawns one child; the child's first call is refused with `refusal`. */
function script(refusal: LoopbackReply) {
  let childCalls = 0;
  return ({ body }: LoopbackIncoming): LoopbackReply => {
    if (lastUserText(body) === 'count the leaves') {
      childCalls++;
      return childCalls === 1 ? refusal : { kind: 'text', chunks: ['forty-two leaves'] };
    }
    const results = trailingToolResults(body);
    if (results.length) return { kind: 'text', chunks: [`The child said: ${results[0].content}`] };
    return { kind: 'tools', calls: [{ id: 'c1', name: 'spawn_subagent', args: { prompt: 'count the leaves' } }] };
  };
}

describe('quota-aware pausing', () => {
  ptyTest('the chat shows the quota banner while a child is held, then resumes it by itself', PTY_TEST_TIMEOUT, async (sb) => {
    sb.h.env.ARBOR_RETRY_MAX_WAIT_MS = '200';
    const model = await sb.withModel(script(tooMany({ 'retry-after': '2' })));
    const term = await sb.startArbor([], { cols: 160, rows: 30 });
    await send(term, 'go');
    await term.waitForText(/⏸ Rate limit on fake \(openai-compatible\/fake-model\): 1 run paused until \d\d:\d\d:\d\d \(in [12]s\)/, 10000);
    expect(term.screen()).toContain('resumes by itself · /agents: resume or kill earlier');
    await term.waitForText('The child said: forty-two leaves', 15000);
    await term.waitForNoText('⏸ Rate limit on fake', 5000);
    // Held and resumed, not failed: the child's refused call was made again.
    expect(model.requests.filter((r) => lastUserText(r.body) === 'count the leaves')).toHaveLength(2);
    expect(term.screen()).toMatch(/the limit has lifted; resuming 1 run/);
  });

  ptyTest('your own turn is held the same way and answers after the reset', PTY_TEST_TIMEOUT, async (sb) => {
    sb.h.env.ARBOR_RETRY_MAX_WAIT_MS = '200';
    const model = await sb.withModel(({ index }) =>
      index === 0
        ? tooMany({ 'x-ratelimit-reset-requests': '2s', 'x-ratelimit-remaining-requests': '0' })
        : { kind: 'text', chunks: ['answered after the reset'] },
    );
    const term = await sb.startArbor([], { cols: 160, rows: 30 });
    await send(term, 'hello');
    await term.waitForText(/⏸ Rate limit on fake \(openai-compatible\/fake-model\): 1 run paused until \d\d:\d\d:\d\d \(in [12]s\)/, 10000);
    await term.waitForText('answered after the reset', 15000);
    await term.waitForNoText('⏸ Rate limit on fake', 5000);
    expect(model.requests).toHaveLength(2);
  });

  ptyTest('headless -p fails on the limit without --wait-on-quota, saying how to wait', PROCESS_TEST_TIMEOUT, async (sb) => {
    sb.h.env.ARBOR_RETRY_MAX_WAIT_MS = '200';
    await sb.withModel(() => tooMany({ 'x-ratelimit-reset-requests': '2s', 'x-ratelimit-remaining-requests': '0' }));
    const r = await sb.arbor(['-p', 'hello']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /provider "fake" \(openai-compatible\/fake-model\): rate limited \(429\): slow down — the limit resets at \d\d:\d\d:\d\d \(in 2s\)/,
    );
    expect(r.stderr).toContain('--wait-on-quota');
  });

  ptyTest('headless -p --wait-on-quota waits for the reset, says so on stderr, then answers', PROCESS_TEST_TIMEOUT, async (sb) => {
    sb.h.env.ARBOR_RETRY_MAX_WAIT_MS = '200';
    const model = await sb.withModel(script(tooMany({ 'retry-after': '1' })));
    const started = Date.now();
    const r = await sb.arbor(['-p', 'go', '--wait-on-quota']);
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(r.stdout).toBe('The child said: forty-two leaves\n');
    expect(r.stderr).toMatch(
      /Rate limit on provider "fake" \(openai-compatible\/fake-model\): its runs are paused until \d\d:\d\d:\d\d \(in 1s\) and resume by themselves then\./,
    );
    expect(model.requests).toHaveLength(4);
  });

  it('--wait-on-quota without -p is a usage error', { timeout: PROCESS_TEST_TIMEOUT }, async (ctx) => {
    const r = await sandbox(ctx).arbor(['--wait-on-quota']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--wait-on-quota only applies to headless mode: use it with -p.');
  });
});
