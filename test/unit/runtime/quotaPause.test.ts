// Quota-aware pausing against a loopback server that answers 429 with Retry-After or reset
// headers (OpenAI, Anthropic), or a used-up quota, and then succeeds: runs are held at their
// step boundary instead of failing, resume by themselves oldest first within max_concurrent,
// and the refused call is made again. Headless without waiting fails as before.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { setLanguage } from '../../../src/i18n/index.js';
import { ConcurrencyLane } from '../../../src/runtime/concurrencyLane.js';
import { createRuntime, type Runtime } from '../../../src/runtime/runtime.js';
import type { Run, RunStatus } from '../../../src/runtime/types.js';
import {
  startLoopbackModel,
  trailingToolResults,
  type LoopbackDialect,
  type LoopbackIncoming,
  type LoopbackModel,
  type LoopbackReply,
} from '../../support/loopbackModel.js';
import { childRuns, calls, makeFixture, serverQuiet, text, until, type Fixture } from '../../helpers/runtimeFixture.js';
import { firstUser, toolResults } from '../../support/wireBody.js';

beforeAll(() => setLanguage('en'));

let fx: Fixture | undefined;
const extraCleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
  for (const c of extraCleanups.splice(0)) await c();
});

// The retry wrapper itself waits out limits up to 200 ms; the 1–2 s resets below are longer.
const ENV = { ARBOR_RETRY_BASE_MS: '5', ARBOR_RETRY_MAX_WAIT_MS: '200', ARBOR_QUOTA_PROBE_MS: '400' };
const WAITING = { interactive: false, waitOnQuota: true, env: ENV };
const HEADLESS = { interactive: false, waitOnQuota: false, env: ENV };

const children = (f: Fixture) => childRuns(f);
const rootOf = (f: Fixture) =>
  f.runtime.store
    .getState()
    .runs.values()
    .find((r) => r.kind === 'root')!;
const notices = (rt: Runtime) => rt.store.getState().transcript.flatMap((i) => (i.kind === 'notice' ? [`${i.level}: ${i.text}`] : []));
const rateLimited = (headers: Record<string, string>): LoopbackReply => ({
  kind: 'status',
  status: 429,
  headers,
  body: '{"error":{"message":"slow down","type":"rate_limit_error"}}',
});

/** Every status each run passed through, in order. */
function statusLog(rt: Runtime): Map<string, RunStatus[]> {
  const log = new Map<string, RunStatus[]>();
  rt.store.subscribe((s) => {
    for (const r of s.runs.values() as Run[]) {
      const seen = log.get(r.id) ?? [];
      if (seen[seen.length - 1] !== r.status) log.set(r.id, [...seen, r.status]);
    }
  });
  return log;
}

describe('the lane readmits held runs oldest first', () => {
  it('priority waiters go ahead of ordinary ones and keep their own order', async () => {
    const lane = new ConcurrencyLane(1, () => {});
    await lane.acquire('busy');
    const got: string[] = [];
    const wait = (id: string, priority: boolean) => lane.acquire(id, undefined, priority).then(() => got.push(id));
    const all = [wait('new-1', false), wait('held-1', true), wait('held-2', true), wait('new-2', false), wait('held-3', true)];
    for (let i = 0; i < 5; i++) {
      lane.release(i === 0 ? 'busy' : got[i - 1]);
      await new Promise((r) => setTimeout(r, 0));
    }
    await Promise.all(all);
    expect(got).toEqual(['held-1', 'held-2', 'held-3', 'new-1', 'new-2']);
  });
});

/** A runtime on a loopback server of either dialect (the shared fixture speaks OpenAI only). */
function dialectFixture(dialect: LoopbackDialect, extraToml: string, respond: (req: LoopbackIncoming) => LoopbackReply): Promise<Fixture> {
  const type = dialect === 'anthropic' ? 'anthropic' : 'openai-compatible';
  return makeFixture({
    dialect,
    respond,
    toml: (url) =>
      `default_agent = "main"\n[providers.fake]\ntype = "${type}"\nbase_url = "${url}"\nmodel = "fake-model"\n[agents.main]\nprovider = "fake"\nsystem_prompt = "x"\n${extraToml}`,
    runtime: { ...WAITING, env: { ...ENV, ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' } },
  });
}

const variants: Array<{ name: string; dialect: LoopbackDialect; headers: (resetAt: number) => Record<string, string> }> = [
  { name: 'Retry-After', dialect: 'openai', headers: () => ({ 'retry-after': '2' }) },
  {
    name: "OpenAI's x-ratelimit-reset-requests",
    dialect: 'openai',
    headers: (resetAt) => ({
      'x-ratelimit-reset-requests': `${Math.max(0, resetAt - Date.now())}ms`,
      'x-ratelimit-remaining-requests': '0',
    }),
  },
  {
    name: "Anthropic's anthropic-ratelimit-tokens-reset",
    dialect: 'anthropic',
    headers: (resetAt) => ({
      'anthropic-ratelimit-tokens-reset': new Date(resetAt).toISOString(),
      'anthropic-ratelimit-tokens-remaining': '0',
    }),
  },
];

describe.each(variants)('children held on a rate limit ($name)', ({ dialect, headers }) => {
  it('pause instead of failing, resume by themselves oldest first within max_concurrent, and make the refused call again', async () => {
    const attempts = new Map<string, number>();
    const afterReset: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    let resetAt = 0;
    // run_timeout_secs 1 < the 2 s wait: the held time must not count as active time.
    fx = await dialectFixture(
      dialect,
      '[runtime_profiles.default]\nparallel_tools = true\n[delegation]\nmax_concurrent = 2\nrun_timeout_secs = 1\n',
      ({ body, index }) => {
        const job = firstUser(body);
        if (job.startsWith('job')) {
          attempts.set(job, (attempts.get(job) ?? 0) + 1);
          if (resetAt === 0 || Date.now() < resetAt) {
            resetAt ||= Date.now() + 2000;
            return rateLimited(headers(resetAt));
          }
          afterReset.push(job);
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          void fx!.server.requests[index].ended.then(() => inFlight--);
          return text(`did ${job}`, 150);
        }
        const results = trailingToolResults(body);
        if (results.length) return text(`all done: ${results.map((m) => m.content).join(' | ')}`);
        return calls(...[1, 2, 3].map((i) => ({ id: `j${i}`, name: 'spawn_subagent', args: { prompt: `job ${i}` } })));
      },
    );
    const label = `${dialect === 'anthropic' ? 'anthropic' : 'openai-compatible'}/fake-model`;
    const log = statusLog(fx.runtime);
    const started = Date.now();
    const turn = fx.runtime.startTurn('go');

    // All three are held (the third before it even asks: the provider is known to be paused).
    await until(() => children(fx!).length === 3 && children(fx!).every((r) => r.status === 'paused'), 5000, 'three held children');
    const banner = fx.runtime.store.getState().quotaPauses ?? [];
    expect(banner).toHaveLength(1);
    expect(banner[0]).toMatchObject({ provider: 'fake', label, reason: 'rate_limit', resetKnown: true });
    expect(banner[0].runIds).toEqual(children(fx).map((r) => r.id));
    expect(banner[0].resetAt - started).toBeGreaterThan(1500);
    expect(attempts.get('job 3') ?? 0).toBeLessThanOrEqual(1);

    await turn;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    const runs = children(fx);
    expect(runs.map((r) => [r.task, r.status, r.error])).toEqual([
      ['job 1', 'completed', undefined],
      ['job 2', 'completed', undefined],
      ['job 3', 'completed', undefined],
    ]);
    for (const r of runs) expect(log.get(r.id)).toContain('paused');
    // The refused call was made again: one model step each, not two.
    expect(runs.map((r) => r.iterations)).toEqual([1, 1, 1]);
    expect(afterReset).toEqual(['job 1', 'job 2', 'job 3']);
    expect(maxInFlight).toBe(2);
    expect(fx.runtime.store.getState().quotaPauses).toEqual([]);
    const root = rootOf(fx);
    expect(root.status).toBe('completed');
    expect(root.result).toBe('all done: did job 1 | did job 2 | did job 3');
    const said = notices(fx.runtime);
    expect(said.filter((n) => n.startsWith(`warn: Rate limit on provider "fake" (${label}): its runs are paused until`))).toHaveLength(1);
    expect(said).toContain(`info: Provider "fake" (${label}): the limit has lifted; resuming 3 runs, oldest first.`);
  });
});

describe('one run held on a rate limit', () => {
  it("OpenAI's x-ratelimit-reset-* headers hold the root run too, and it resumes by itself", async () => {
    fx = await makeFixture({
      runtime: WAITING,
      respond: ({ index }) =>
        index === 0
          ? rateLimited({ 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-tokens': '6ms' })
          : text('hello after the reset'),
    });
    const log = statusLog(fx.runtime);
    const started = Date.now();
    await fx.runtime.startTurn('hi');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const root = fx.runtime.store.getState().runs.values()[0];
    expect([root.status, root.result, root.iterations]).toEqual(['completed', 'hello after the reset', 1]);
    expect(log.get(root.id)).toEqual(['queued', 'running', 'pausing', 'paused', 'running', 'completed']);
    expect(fx.server.requests).toHaveLength(2);
  });

  it("Anthropic's anthropic-ratelimit-*-reset times hold the run until then", async () => {
    let reset = 0;
    const server: LoopbackModel = await startLoopbackModel({
      dialect: 'anthropic',
      respond: ({ index }) => {
        if (index > 0) return text('claude is back');
        reset = Date.now() + 1500;
        return rateLimited({
          'anthropic-ratelimit-requests-reset': new Date(Date.now() + 1000).toISOString(),
          'anthropic-ratelimit-requests-remaining': '3',
          'anthropic-ratelimit-tokens-reset': new Date(reset).toISOString(),
          'anthropic-ratelimit-tokens-remaining': '0',
        });
      },
    });
    const workdir = mkdtempSync(join(tmpdir(), 'arbor-quota-'));
    const toml = `default_agent = "main"\n[providers.claude]\ntype = "anthropic"\nbase_url = "${server.url}"\nmodel = "claude-test"\n[agents.main]\nprovider = "claude"\nsystem_prompt = "x"\n`;
    const loaded = loadConfigFromTexts([{ text: toml, file: join(workdir, 'config.toml') }], {});
    const rt = createRuntime({
      config: loaded.config,
      cwd: workdir,
      ...WAITING,
      env: { ...ENV, ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' },
    });
    extraCleanups.push(async () => {
      await rt.dispose();
      await server.close();
      rmSync(workdir, { recursive: true, force: true });
    });
    const turn = rt.startTurn('hi');
    await until(() => (rt.store.getState().quotaPauses ?? []).length === 1, 5000, 'the banner');
    const pause = rt.store.getState().quotaPauses![0];
    expect(pause).toMatchObject({ provider: 'claude', label: 'anthropic/claude-test', reason: 'rate_limit', resetKnown: true });
    // The tokens limit (remaining 0) decides, not the earlier requests reset.
    expect(Math.abs(pause.resetAt - reset)).toBeLessThan(1000);
    await turn;
    expect(Date.now()).toBeGreaterThanOrEqual(reset - 50);
    const root = rt.store.getState().runs.values()[0];
    expect([root.status, root.result]).toEqual(['completed', 'claude is back']);
  });

  it('a used-up quota with no reset time is tried again after the probe wait', async () => {
    const quotaBody = JSON.stringify({
      error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' },
    });
    fx = await makeFixture({
      runtime: WAITING,
      respond: ({ index }) => (index === 0 ? { kind: 'status', status: 429, body: quotaBody } : text('credit added')),
    });
    const turn = fx.runtime.startTurn('hi');
    await until(() => (fx!.runtime.store.getState().quotaPauses ?? []).length === 1, 5000, 'the banner');
    expect(fx.runtime.store.getState().quotaPauses![0]).toMatchObject({ reason: 'exhausted', resetKnown: false });
    await turn;
    expect(fx.runtime.store.getState().runs.values()[0].result).toBe('credit added');
    expect(notices(fx.runtime).some((n) => n.includes('with no reset time given: its runs are paused and try again at'))).toBe(true);
  });
});

describe('the operator acts earlier', () => {
  const spawnOne = (childReply: (attempt: number) => LoopbackReply) => {
    let attempt = 0;
    return ({ body }: { body: unknown }): LoopbackReply => {
      if (firstUser(body) === 'job') return childReply(++attempt);
      if (toolResults(body).length) return text(`root saw: ${toolResults(body)[0].content}`);
      return calls({ id: 'c1', name: 'spawn_subagent', args: { prompt: 'job' } });
    };
  };

  it('resume early: the call is made again at once', async () => {
    fx = await makeFixture({
      runtime: WAITING,
      respond: spawnOne((n) => (n === 1 ? rateLimited({ 'retry-after': '30' }) : text('child done early'))),
    });
    const started = Date.now();
    const turn = fx.runtime.startTurn('go');
    await until(() => children(fx!)[0]?.status === 'paused', 5000, 'held child');
    fx.runtime.resume(children(fx)[0].id);
    await turn;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(children(fx)[0].status).toBe('completed');
    expect(fx.runtime.store.getState().quotaPauses).toEqual([]);
  });

  it('a tree the operator paused meanwhile stays paused past the reset, and goes on when resumed', async () => {
    fx = await makeFixture({
      runtime: WAITING,
      respond: spawnOne((n) => (n === 1 ? rateLimited({ 'retry-after': '1' }) : text('child done'))),
    });
    const turn = fx.runtime.startTurn('go');
    await until(() => children(fx!)[0]?.status === 'paused', 5000, 'held child');
    const root = rootOf(fx);
    fx.runtime.pause(root.id);
    await until(() => (fx!.runtime.store.getState().quotaPauses ?? []).length === 0, 5000, 'the reset');
    await serverQuiet(fx.server);
    expect(children(fx)[0].status).toBe('paused');
    expect(fx.server.requests).toHaveLength(2);
    fx.runtime.resume(root.id);
    await turn;
    expect(children(fx)[0].status).toBe('completed');
    expect(fx.server.requests).toHaveLength(4);
  });

  it('kill while held: the child ends killed, the banner goes, the parent goes on', async () => {
    fx = await makeFixture({
      runtime: WAITING,
      respond: spawnOne(() => rateLimited({ 'retry-after': '30' })),
    });
    const turn = fx.runtime.startTurn('go');
    await until(() => children(fx!)[0]?.status === 'paused', 5000, 'held child');
    fx.runtime.kill(children(fx)[0].id);
    await turn;
    expect(children(fx)[0].status).toBe('killed');
    expect(fx.runtime.store.getState().quotaPauses).toEqual([]);
    const root = rootOf(fx);
    expect(root.result).toBe('root saw: subagent run failed: killed by the operator');
  });
});

describe('headless without --wait-on-quota', () => {
  it('a child fails as before, naming the reset time, and the parent goes on', async () => {
    fx = await makeFixture({
      runtime: HEADLESS,
      respond: ({ body }) => {
        if (firstUser(body) === 'job') return rateLimited({ 'retry-after': '60' });
        if (toolResults(body).length) return text('root continued');
        return calls({ id: 'c1', name: 'spawn_subagent', args: { prompt: 'job' } });
      },
    });
    await fx.runtime.startTurn('go');
    const child = children(fx)[0];
    expect(child.status).toBe('failed');
    expect(child.error).toMatch(
      /^provider "fake" \(openai-compatible\/fake-model\): rate limited \(429\): slow down — the limit resets at \d\d:\d\d:\d\d \(in (1m 0s|59s)\)$/,
    );
    expect(rootOf(fx).result).toBe('root continued');
    expect(notices(fx.runtime)).toContain(
      "warn: A provider's rate or quota limit outlasts arbor's retries; a headless run fails on it. Run arbor -p with --wait-on-quota to wait for the reset instead.",
    );
    expect(fx.runtime.store.getState().quotaPauses ?? []).toEqual([]);
  });

  it('the root run fails at once', async () => {
    fx = await makeFixture({ runtime: HEADLESS, respond: () => rateLimited({ 'x-ratelimit-reset-requests': '1m30s' }) });
    await fx.runtime.startTurn('hi');
    const root = fx.runtime.store.getState().runs.values()[0];
    expect(root.status).toBe('failed');
    expect(root.error).toMatch(/the limit resets at \d\d:\d\d:\d\d \(in 1m (29|30)s\)$/);
    expect(fx.server.requests).toHaveLength(1);
  });
});
