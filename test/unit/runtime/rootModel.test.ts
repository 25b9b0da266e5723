// Switching the root's model (/model, --model): the spec, the list, and what the loopback
// model is asked for afterwards (root switched, children on their own definitions).
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { modelChoices, parseModelSpec } from '../../../src/runtime/rootModel.js';
import { lastUserText } from '../../support/loopbackModel.js';
import { baseToml, calls, firstUserText, makeFixture, text, toolMessages, type Fixture } from '../../helpers/runtimeFixture.js';
import { requestOf } from '../../support/wireRequest.js';

beforeAll(() => setLanguage('en'));

let fx: Fixture | undefined;

/** The provider every config below starts with: an openai-compatible server never asked. */
const FAKE_PROVIDER = `
[providers.fake]
type = "openai-compatible"
base_url = "http://127.0.0.1:9/v1"
model = "fake-model"`;
const configOf = (text: string) => loadConfigFromTexts([{ file: '/x/config.toml', text }], {}).config;

const config = configOf(`${FAKE_PROVIDER}
pricing = { input_per_mtok = 1, output_per_mtok = 2 }
[providers."open/router"]
type = "openai"
model = "gpt-x"
[providers.off]
type = "offline"
[agents.main]
provider = "fake"
`);

describe('parseModelSpec', () => {
  it('a provider, or a provider and another model on it', () => {
    expect(parseModelSpec('off', config)).toEqual({ provider: 'off' });
    expect(parseModelSpec('fake/other', config)).toEqual({ provider: 'fake', model: 'other' });
    // Model names may hold '/'; provider names too, when the whole spec is one.
    expect(parseModelSpec('fake/meta-llama/llama-3', config)).toEqual({ provider: 'fake', model: 'meta-llama/llama-3' });
    expect(parseModelSpec('open/router', config)).toEqual({ provider: 'open/router' });
    expect(parseModelSpec('open/router/gpt-y', config)).toEqual({ provider: 'open/router', model: 'gpt-y' });
    // The provider's own model is no override.
    expect(parseModelSpec('fake/fake-model', config)).toEqual({ provider: 'fake' });
  });

  it('bad specs say what is wrong and name the configured providers', () => {
    expect(() => parseModelSpec('nope', config)).toThrow('No provider "nope" in the config (configured: fake, open/router, off).');
    expect(() => parseModelSpec('nope/gpt', config)).toThrow('No provider "nope" in the config (configured: fake, open/router, off).');
    expect(() => parseModelSpec('  ', config)).toThrow(
      'Name a provider, optionally with a model: <provider>[/<model>] (configured: fake, open/router, off).',
    );
    expect(() => parseModelSpec('fake/', config)).toThrow('"fake/" has no usable model name after the "/"');
    expect(() => parseModelSpec('fake/a\u001b[2Jb', config)).toThrow('has no usable model name');
  });
});

describe('modelChoices (the /model list)', () => {
  it('every configured provider with its model, the current one marked; another model is listed while in use', () => {
    expect(modelChoices(config, { provider: 'fake' }).map((c) => [c.id, c.label, c.current])).toEqual([
      ['fake', 'openai-compatible/fake-model', true],
      ['open/router', 'openai/gpt-x', false],
      ['off', 'offline/arbor-offline', false],
    ]);
    expect(modelChoices(config, { provider: 'fake', model: 'big' }).map((c) => [c.id, c.label, c.current])).toEqual([
      ['fake', 'openai-compatible/fake-model', false],
      ['open/router', 'openai/gpt-x', false],
      ['off', 'offline/arbor-offline', false],
      ['fake/big', 'openai-compatible/big', true],
    ]);
  });
  it('lists the models agent definitions name, with those agents, once each', () => {
    const withAgents = configOf(`${FAKE_PROVIDER}
[agents.main]
provider = "fake"
[agents.coder]
provider = "fake"
model = "coder-model"
[agents.reviewer]
provider = "fake"
model = "coder-model"
[agents.plain]
provider = "fake"
model = "fake-model"
`);
    expect(modelChoices(withAgents, { provider: 'fake' }).map((c) => [c.id, c.label, c.current, c.agents])).toEqual([
      ['fake', 'openai-compatible/fake-model', true, ['plain']],
      ['fake/coder-model', 'openai-compatible/coder-model', false, ['coder', 'reviewer']],
    ]);
    expect(
      modelChoices(withAgents, { provider: 'fake', model: 'coder-model' })
        .filter((c) => c.current)
        .map((c) => c.id),
    ).toEqual(['fake/coder-model']);
  });
});

describe('setModel through the runtime (loopback model)', () => {
  it('/model p/m: root turns ask for m; a spawn_subagent child keeps its definition; the switch is recorded', async () => {
    const recorded: unknown[] = [];
    fx = await makeFixture({
      respond: ({ body }) => {
        if (firstUserText(body) === 'child task') return text('child answer');
        if (lastUserText(body) === 'spawn one' && !toolMessages(body).length)
          return calls({ id: 'c1', name: 'spawn_subagent', args: { prompt: 'child task' } });
        return text('ok');
      },
      runtime: { sinks: { recordModel: (sel) => recorded.push(sel) } },
    });
    await fx.runtime.startTurn('before');
    expect(requestOf(fx.server.requests.at(-1)!.body).model).toBe('fake-model');

    fx.runtime.setModel!('fake/other-model');
    expect(fx.runtime.store.getState().info).toMatchObject({ providerName: 'fake', providerLabel: 'openai-compatible/other-model' });
    expect(recorded).toEqual([{ provider: 'fake', model: 'other-model' }]);
    expect(fx.runtime.models!().find((c) => c.current)).toMatchObject({ id: 'fake/other-model', label: 'openai-compatible/other-model' });

    await fx.runtime.startTurn('after');
    expect(requestOf(fx.server.requests.at(-1)!.body).model).toBe('other-model');

    fx.server.requests.length = 0;
    await fx.runtime.startTurn('spawn one');
    const models = fx.server.requests.map((r) => [firstUserText(r.body), requestOf(r.body).model]);
    expect(models).toContainEqual(['child task', 'fake-model']);
    expect(models.filter(([who]) => who !== 'child task').every(([, m]) => m === 'other-model')).toBe(true);
    const root = fx.runtime.store
      .getState()
      .runs.values()
      .filter((r) => r.kind === 'root');
    expect(root.at(-1)!.model).toBe('openai-compatible/other-model');

    // Back to the provider's own model.
    fx.runtime.setModel!('fake');
    await fx.runtime.startTurn('again');
    expect(requestOf(fx.server.requests.at(-1)!.body).model).toBe('fake-model');
    expect(recorded.at(-1)).toEqual({ provider: 'fake' });
  });

  it('an unknown provider changes nothing and names the configured ones', async () => {
    fx = await makeFixture({ respond: () => text('ok') });
    expect(() => fx!.runtime.setModel!('ghost/x')).toThrow('No provider "ghost" in the config (configured: fake).');
    expect(fx.runtime.store.getState().info.providerLabel).toBe('openai-compatible/fake-model');
    await fx.runtime.startTurn('hi');
    expect(requestOf(fx.server.requests[0].body).model).toBe('fake-model');
  });

  it('a restored selection (rootModel) applies from the first turn', async () => {
    fx = await makeFixture({
      respond: () => text('ok'),
      toml: (url) => baseToml(url),
      runtime: { rootModel: { provider: 'fake', model: 'kept-model' } },
    });
    expect(fx.runtime.store.getState().info.providerLabel).toBe('openai-compatible/kept-model');
    await fx.runtime.startTurn('hi');
    expect(requestOf(fx.server.requests[0].body).model).toBe('kept-model');
  });
});

describe('the root agent with a model of its own (agent definition)', () => {
  it('starts on it, lists it as current; /model <provider> picks the provider own model; the temperature stays', async () => {
    fx = await makeFixture({
      respond: () => text('ok'),
      toml: (url) =>
        baseToml(url).replace(
          'system_prompt = "You are main."',
          'system_prompt = "You are main."\nmodel = "own-model"\ntemperature = 0.25',
        ),
    });
    expect(fx.runtime.store.getState().info.providerLabel).toBe('openai-compatible/own-model');
    expect(fx.runtime.models!().find((c) => c.current)).toMatchObject({ id: 'fake/own-model' });
    await fx.runtime.startTurn('one');
    expect(fx.server.requests.at(-1)!.body).toMatchObject({ model: 'own-model', temperature: 0.25 });
    fx.runtime.setModel!('fake');
    await fx.runtime.startTurn('two');
    expect(fx.server.requests.at(-1)!.body).toMatchObject({ model: 'fake-model', temperature: 0.25 });
    fx.runtime.setModel!('fake/third');
    await fx.runtime.startTurn('three');
    expect(fx.server.requests.at(-1)!.body).toMatchObject({ model: 'third', temperature: 0.25 });
    fx.runtime.setModel!('fake/own-model');
    await fx.runtime.startTurn('four');
    expect(fx.server.requests.at(-1)!.body).toMatchObject({ model: 'own-model', temperature: 0.25 });
  });
});
