// An agent's own model, temperature and tools (from an agent file here, an [agents.<alias>]
// table alike) reach the real request on every path: the root, a delegate child, a
// spawn_subagent child. The model that answered (the server's reply names it) is what the
// run, and so the card, the /agents row and the trace log, show.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import type { AgentFileText } from '../../../src/config/agentFiles.js';
import { withRootAgent } from '../../../src/config/rootAgent.js';
import { createRuntime, type Runtime } from '../../../src/runtime/runtime.js';
import type { TraceEvent } from '../../../src/persistence/traceLog.js';
import {
  hasToolResults,
  startLoopbackModel,
  type LoopbackIncoming,
  type LoopbackModel,
  type LoopbackReply,
} from '../../support/loopbackModel.js';
import { ENV, scriptedRuntime } from '../delegate/helpers.js';
import { firstUser } from '../../support/wireBody.js';
import { offeredTools, requestOf } from '../../support/wireRequest.js';

interface Fx {
  server: LoopbackModel;
  runtime: Runtime;
  trace: TraceEvent[];
  requestsOf(alias: string): LoopbackIncoming[];
  cleanup(): Promise<void>;
}
let fx: Fx | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const text = (s: string): LoopbackReply => ({ kind: 'text', chunks: [s] });
const call = (name: string, args: object): LoopbackReply => ({ kind: 'tools', calls: [{ id: 'c1', name, args }] });
const callThenDone =
  (name: string, args: object) =>
  (req: LoopbackIncoming): LoopbackReply =>
    hasToolResults(req.body) ? text('done') : call(name, args);

const TOML = (url: string, extra = '') => `
default_agent = "main"
[providers.fake]
type = "openai-compatible"
base_url = "${url}"
model = "fake-model"
temperature = 0.9
[risk_profiles.trusted]
delegation_policy = { mode = "allow" }
[runtime_profiles.agentic]
agentic = true
[agents.main]
provider = "fake"
risk_profile = "trusted"
system_prompt = "You are main."
${extra}
`;

const agentFile = (name: string, frontmatter: string): AgentFileText => ({
  file: `/p/.arbor/agents/${name}.md`,
  text: `---\n${frontmatter}\n---\nYou are ${name}.\n`,
  scope: 'project',
});

async function fixture(opts: {
  toml?: string;
  files: AgentFileText[];
  agents: Record<string, (req: LoopbackIncoming) => LoopbackReply>;
  answerModel?: (m: string) => string;
}): Promise<Fx> {
  const trace: TraceEvent[] = [];
  const fx = await scriptedRuntime({
    name: 'agentmodel',
    config: (url) => TOML(url, opts.toml),
    agents: opts.agents,
    agentFiles: opts.files,
    answerModel: opts.answerModel,
    runtime: () => ({ sinks: { trace: (e) => trace.push(e) } }),
  });
  return Object.assign(fx, { trace });
}

/** main (with `toml` added) delegates `prompt` (default "check") once to `alias`, an agent
 * file of `frontmatter` that answers `answer` (default "ok"); the turn "go" has run. */
async function delegatedOnce(
  alias: string,
  frontmatter: string,
  opts: { prompt?: string; answer?: string; toml?: string; answerModel?: (m: string) => string } = {},
): Promise<Fx> {
  fx = await fixture({
    toml: `delegates = ["${alias}"]\n${opts.toml ?? ''}`,
    files: [agentFile(alias, frontmatter)],
    agents: { main: callThenDone('delegate', { agent: alias, prompt: opts.prompt ?? 'check' }), [alias]: () => text(opts.answer ?? 'ok') },
    answerModel: opts.answerModel,
  });
  await fx.runtime.startTurn('go');
  return fx;
}

const toolNames = (req: LoopbackIncoming): string[] =>
  offeredTools(req.body)
    .map((t) => t.name)
    .sort();
const runOf = (runtime: Runtime, alias: string) =>
  runtime.store
    .getState()
    .runs.values()
    .find((r) => r.alias === alias)!;

describe("a child's model is the one its definition names", () => {
  it('a delegate target with model and temperature in its agent file: both are in its request; the caller keeps the provider’s', async () => {
    fx = await delegatedOnce('reviewer', 'description: reviews\nmodel: big-model\ntemperature: 0.3\nrisk_profile: trusted', {
      prompt: 'check',
      answer: 'LGTM',
    });
    const [child] = fx.requestsOf('reviewer');
    expect(requestOf(child.body).model).toBe('big-model');
    expect(requestOf(child.body).temperature).toBe(0.3);
    for (const req of fx.requestsOf('main')) {
      expect(requestOf(req.body).model).toBe('fake-model');
      expect(requestOf(req.body).temperature).toBe(0.9);
    }
    const item = fx.runtime.store.getState().transcript.find((i) => i.kind === 'tool' && i.name === 'delegate');
    expect(item?.kind === 'tool' && item.result).toBe("[Agent 'reviewer' (openai-compatible/big-model)]\nLGTM");
    expect(runOf(fx.runtime, 'reviewer').model).toBe('openai-compatible/big-model');
  });

  it('an agentic delegate target (it runs a loop of its own) uses its model too', async () => {
    fx = await delegatedOnce('worker', 'model: worker-model\nrisk_profile: trusted\nruntime_profile: agentic');
    expect(fx.requestsOf('worker').map((r) => requestOf(r.body).model)).toEqual(['worker-model']);
  });

  it('the root agent from a file (picked as --agent does) uses its model, and so does its spawn_subagent child', async () => {
    let spawned = 0;
    // The child shares the root's system prompt; its first user message is its task.
    const server = await startLoopbackModel({
      dialect: 'openai',
      respond: (req) => {
        if (firstUser(req.body) === 'sub task') return text('sub done');
        if (hasToolResults(req.body)) return text('all done');
        spawned++;
        return call('spawn_subagent', { prompt: 'sub task' });
      },
    });
    const home = mkdtempSync(join(tmpdir(), 'arbor-agentmodel-'));
    const loaded = withRootAgent(
      loadConfigFromTexts([{ file: join(home, 'c.toml'), text: TOML(server.url) }], ENV, [agentFile('lead', 'model: lead-model')]),
      'lead',
    );
    const runtime = createRuntime({ config: loaded.config, cwd: home, interactive: false, env: ENV });
    fx = {
      server,
      runtime,
      trace: [],
      requestsOf: () => [],
      async cleanup() {
        await runtime.dispose();
        await server.close();
        rmSync(home, { recursive: true, force: true });
      },
    };
    expect(runtime.store.getState().info.providerLabel).toBe('openai-compatible/lead-model');
    await runtime.startTurn('go');
    expect(spawned).toBe(1);
    const models = server.requests.map((r) => requestOf(r.body).model);
    expect(models.length).toBeGreaterThanOrEqual(3);
    expect(new Set(models)).toEqual(new Set(['lead-model']));
    expect(
      runtime.store
        .getState()
        .runs.values()
        .find((r) => r.kind === 'subagent')?.model,
    ).toBe('openai-compatible/lead-model');
  });
});

describe('the model that answered is shown, from the provider’s reply', () => {
  it('a server that answers as a dated version: run.model (card, /agents row) and the trace say so', async () => {
    fx = await delegatedOnce('reviewer', 'model: big-model\nrisk_profile: trusted', { answerModel: (m) => `${m}-2025-06-01` });
    expect(requestOf(fx.requestsOf('reviewer')[0].body).model).toBe('big-model');
    const child = runOf(fx.runtime, 'reviewer');
    expect(child.model).toBe('openai-compatible/big-model-2025-06-01');
    expect(runOf(fx.runtime, 'main').model).toBe('openai-compatible/fake-model-2025-06-01');
    const started = fx.trace.find((e) => e.event === 'run_started' && e.agent_alias === 'reviewer');
    const finished = fx.trace.find((e) => e.event === 'run_finished' && e.agent_alias === 'reviewer');
    // Configured at the start, answered at the end.
    expect(started?.model).toBe('openai-compatible/big-model');
    expect(finished?.model).toBe('openai-compatible/big-model-2025-06-01');
    expect(fx.trace.find((e) => e.event === 'run_finished' && e.agent_alias === 'main')?.model).toBe(
      'openai-compatible/fake-model-2025-06-01',
    );
  });

  it('a model id with control characters reaches the store neutralised', async () => {
    fx = await fixture({ files: [], agents: { main: () => text('hi') }, answerModel: () => 'evil\u001b[2Jmodel' });
    await fx.runtime.startTurn('go');
    expect(runOf(fx.runtime, 'main').model).toBe('openai-compatible/evil␛[2Jmodel');
  });
});

describe('tools: the agent’s allow-list narrows within its risk profile', () => {
  it('globs pick the tools the model is offered; a name the profile excludes stays out', async () => {
    fx = await delegatedOnce('reader', 'tools: [read_file, "list_*", "write_*"]\nrisk_profile: noread\nruntime_profile: agentic', {
      toml: '[risk_profiles.noread]\nexcluded_tools = ["read_file"]\n',
    });
    expect(toolNames(fx.requestsOf('reader')[0])).toEqual(['list_files', 'write_file']);
  });

  it('the root’s own list narrows its tools, and a bounded delegate never gets a tool its caller lacks', async () => {
    fx = await delegatedOnce('helper', 'runtime_profile: agentic', { toml: 'tools = ["delegate", "list_files"]\n' });
    expect(toolNames(fx.requestsOf('main')[0])).toEqual(['delegate', 'list_files']);
    expect(toolNames(fx.requestsOf('helper')[0])).toEqual(['list_files']);
  });

  it('an empty list leaves no tools', async () => {
    fx = await fixture({ toml: 'tools = []', files: [], agents: { main: () => text('no tools') } });
    await fx.runtime.startTurn('go');
    expect(offeredTools(fx.server.requests[0].body)).toEqual([]);
  });
});
