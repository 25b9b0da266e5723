// The output strings the model sees for synchronous and parallel delegation.
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { agentTimedOut, syncEnvelope } from '../../../src/tools/delegate/strings.js';
import {
  agent,
  agentOf,
  callsThenDone,
  delegateCall,
  delegateFixture,
  delegateResults,
  firstUser,
  text,
  toml,
  until,
  type DelegateFixture,
  type Responder,
  delegatesToEach,
} from './helpers.js';
import { offeredTools } from '../../support/wireRequest.js';

let fx: DelegateFixture | undefined;
afterEach(async () => {
  setLanguage('en');
  await fx?.cleanup();
  fx = undefined;
});

const trusted = (alias: string, extra = '') => agent(alias, `risk_profile = "trusted"\n${extra}`);

async function delegateOnce(config: string, args: object, agents: Record<string, Responder>) {
  fx = await delegateFixture({ config: (url) => toml(url, config), agents: { main: callsThenDone(delegateCall(args)), ...agents } });
  await fx.runtime.startTurn('go');
  return delegateResults(fx.runtime)[0];
}

const fail500: Responder = () => ({ kind: 'status', status: 500, body: JSON.stringify({ error: { message: 'boom upstream' } }) });

describe('synchronous delegation', () => {
  it('success: the envelope names the target and its provider/model, then the response', async () => {
    const item = await delegateOnce(
      trusted('main') + trusted('reviewer'),
      { agent: 'reviewer', prompt: 'check this' },
      { reviewer: () => text('Looks fine.') },
    );
    expect(item.status).toBe('ok');
    expect(item.result).toBe("[Agent 'reviewer' (openai-compatible/fake-model)]\nLooks fine.");
    expect(item.result).toBe(syncEnvelope('reviewer', 'openai-compatible/fake-model', false, 'Looks fine.'));
    // A single-call target: one model request, no tools offered.
    const [req] = fx!.requestsOf('reviewer');
    expect(fx!.requestsOf('reviewer')).toHaveLength(1);
    expect(offeredTools(req.body)).toHaveLength(0);
    expect(firstUser(req)).toBe('check this');
  });

  it('an agentic target says so inside the parentheses', async () => {
    const item = await delegateOnce(
      trusted('main') + trusted('reviewer', 'runtime_profile = "agentic"'),
      { agent: 'reviewer', prompt: 'check' },
      { reviewer: () => text('LGTM') },
    );
    expect(item.result).toBe("[Agent 'reviewer' (openai-compatible/fake-model, agentic)]\nLGTM");
  });

  it('context is prepended as [Context] ... [Task]', async () => {
    await delegateOnce(
      trusted('main') + trusted('r'),
      { agent: 'r', prompt: 'Summarize it.', context: 'The file is big.' },
      { r: () => text('ok') },
    );
    expect(firstUser(fx!.requestsOf('r')[0])).toBe('[Context]\nThe file is big.\n\n[Task]\nSummarize it.');
    // The child's own transcript starts with the same message.
    const child = fx!.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.alias === 'r')!;
    const first = fx!.runtime.store.getState().runTranscripts.get(child.id)![0];
    expect(first.kind === 'user' && first.text).toBe('[Context]\nThe file is big.\n\n[Task]\nSummarize it.');
  });

  it('an empty response is the localized invalid-semantic-completion failure (en and es)', async () => {
    const item = await delegateOnce(trusted('main') + trusted('r'), { agent: 'r', prompt: 'p' }, { r: () => text('   ') });
    expect(item.status).toBe('error');
    expect(item.result).toBe("Agent 'r' failed: model provider returned an invalid semantic completion.");
    await fx!.cleanup();
    setLanguage('es');
    const es = await delegateOnce(trusted('main') + trusted('r'), { agent: 'r', prompt: 'p' }, { r: () => text('') });
    expect(es.result).toBe("El agente 'r' falló: el proveedor del modelo devolvió una respuesta semánticamente inválida.");
  });

  it("other failures: Agent '<target>' failed: <wrapped error>", async () => {
    const item = await delegateOnce(trusted('main') + trusted('r'), { agent: 'r', prompt: 'p' }, { r: fail500 });
    expect(item.status).toBe('error');
    expect(item.result!.startsWith("Agent 'r' failed: ")).toBe(true);
    expect(item.result!.length).toBeGreaterThan("Agent 'r' failed: ".length);
    const run = fx!.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.alias === 'r')!;
    expect(run.status).toBe('failed');
    expect(item.result).toBe(`Agent 'r' failed: ${run.error}`);
  });

  it('timeout from the target runtime profile: Agent <target> timed out after <N>s', async () => {
    const config = `
[runtime_profiles.quick]
delegation_timeout_secs = 0.3
${trusted('main')}${trusted('slow', 'runtime_profile = "quick"')}`;
    const item = await delegateOnce(config, { agent: 'slow', prompt: 'p' }, { slow: () => ({ kind: 'hang' }) });
    expect(item.result).toBe("Agent 'slow' timed out after 0.3s");
    expect(item.result).toBe(agentTimedOut('slow', 0.3));
    const run = fx!.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.alias === 'slow')!;
    expect(run.status).toBe('timed_out');
    // The hung request was abandoned, not left open.
    const hung = fx!.server.requests.find((r) => agentOf(r.body) === 'slow')!;
    expect(await hung.ended).toBe('client_closed');
  });

  it('agentic targets use agentic_timeout_secs', async () => {
    const config = `
[runtime_profiles.agentic_quick]
agentic = true
agentic_timeout_secs = 0.25
delegation_timeout_secs = 60
${trusted('main')}${trusted('slow', 'runtime_profile = "agentic_quick"')}`;
    const item = await delegateOnce(config, { agent: 'slow', prompt: 'p' }, { slow: () => ({ kind: 'hang' }) });
    expect(item.result).toBe("Agent 'slow' timed out after 0.25s");
  });
});

describe('parallel fan-out', () => {
  it('one block per target, in order, with one failing target', async () => {
    const config = trusted('main') + trusted('good') + trusted('bad') + trusted('slowgood');
    const item = await delegateOnce(
      config,
      { parallel: ['good', 'bad', 'slowgood'], prompt: 'same task' },
      {
        good: () => text('fine'),
        bad: fail500,
        // Answers only once good has asked, so the two runs overlap whatever the machine's speed.
        slowgood: async () => {
          await until(() => fx!.requestsOf('good').length === 1, 5000, 'good asked');
          return text('late but fine');
        },
      },
    );
    const badRun = fx!.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.alias === 'bad')!;
    expect(item.status).toBe('ok');
    expect(item.result).toBe(
      '[Parallel delegation: 3 agents]\n\n' +
        "--- good (success=true) ---\n[Agent 'good' (openai-compatible/fake-model)]\nfine\n\n" +
        `--- bad (success=false) ---\nError: Agent 'bad' failed: ${badRun.error}\n\n` +
        "--- slowgood (success=true) ---\n[Agent 'slowgood' (openai-compatible/fake-model)]\nlate but fine",
    );
    // Every target got the same prompt, and they ran at the same time.
    for (const a of ['good', 'bad', 'slowgood']) expect(firstUser(fx!.requestsOf(a)[0])).toBe('same task');
    const runs = fx!.runtime.store
      .getState()
      .runs.values()
      .filter((r) => r.kind === 'delegate');
    expect(runs).toHaveLength(3);
    const slow = runs.find((r) => r.alias === 'slowgood')!;
    const good = runs.find((r) => r.alias === 'good')!;
    expect(good.startedAt!).toBeLessThan(slow.endedAt!);
    expect(slow.startedAt!).toBeLessThan(good.endedAt!);
  });

  it('all failing: the result is an error carrying the blocks', async () => {
    const item = await delegateOnce(
      trusted('main') + trusted('x') + trusted('y'),
      { parallel: ['x', 'y'], prompt: 'p' },
      { x: fail500, y: () => text('') },
    );
    expect(item.status).toBe('error');
    expect(item.result).toMatch(/^\[Parallel delegation: 2 agents\]\n\n--- x \(success=false\) ---\nError: Agent 'x' failed: /);
    expect(item.result).toContain(
      "--- y (success=false) ---\nError: Agent 'y' failed: model provider returned an invalid semantic completion.",
    );
  });

  it('identical delegate calls in one turn all run (duplicate guard exemption)', async () => {
    fx = await delegateFixture({
      config: (url) => toml(url, trusted('main') + trusted('r')),
      agents: {
        main: delegatesToEach(['r', 'r'], 'same'),
        r: () => text('answer'),
      },
    });
    await fx.runtime.startTurn('go');
    expect(delegateResults(fx.runtime).map((i) => i.status)).toEqual(['ok', 'ok']);
    expect(fx.requestsOf('r')).toHaveLength(2);
  });
});
