// Which runs carry the project context, read in the loopback requests' system prompts: the
// root, its spawn_subagent children, and delegates unless their definition says
// `context = false`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { extraServicesFor, extraToolsFor } from '../../../src/cli/extraTools.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { loadProjectContext } from '../../../src/config/projectContext.js';
import { setLanguage } from '../../../src/i18n/index.js';
import { createRuntime, type Runtime } from '../../../src/runtime/runtime.js';
import { hasToolResults, startLoopbackModel, type LoopbackIncoming, type LoopbackModel } from '../../support/loopbackModel.js';

beforeAll(() => setLanguage('en'));

const RULE = 'PROJECT RULE: answer in haiku';
const ENV = { ARBOR_RETRY_MAX: '0', ARBOR_RETRY_BASE_MS: '1' };

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const systemOf = (req: LoopbackIncoming): string => (req.body.messages ?? []).find((m: any) => m.role === 'system')?.content ?? '';
const firstUser = (req: LoopbackIncoming): string => (req.body.messages ?? []).find((m: any) => m.role === 'user')?.content ?? '';

/** A repository with an AGENTS.md, a runtime whose agents are told apart by "You are <x>." */
async function world(agents: string, respond: (req: LoopbackIncoming) => any): Promise<{ runtime: Runtime; server: LoopbackModel }> {
  const root = mkdtempSync(join(tmpdir(), 'arbor-ctx-rt-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const repo = join(root, 'repo');
  const home = join(root, 'home');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(repo, 'AGENTS.md'), RULE);
  const server = await startLoopbackModel({ dialect: 'openai', respond });
  cleanups.push(() => server.close());
  const text = `
default_agent = "main"
[providers.fake]
type = "openai-compatible"
base_url = "${server.url}"
model = "fake-model"
[risk_profiles.trusted]
delegation_policy = { mode = "allow" }
${agents}
`;
  const loaded = loadConfigFromTexts([{ text, file: join(repo, 'config.toml') }], ENV);
  const runtime = createRuntime({
    config: loaded.config,
    cwd: repo,
    interactive: false,
    env: ENV,
    extraTools: extraToolsFor(loaded.config, home),
    extraServices: extraServicesFor(loaded.config, home),
    projectContext: loadProjectContext({ cwd: repo, home, maxKb: loaded.config.context?.max_kb }),
  });
  cleanups.push(() => runtime.dispose());
  return { runtime, server };
}

const agentOf = (req: LoopbackIncoming) => /^You are (\w+)\./.exec(systemOf(req))?.[1];

describe('project context reaches', () => {
  it('the root, its spawn_subagent child, and a delegate; not a delegate with context = false', async () => {
    const { runtime, server } = await world(
      `
[agents.main]
provider = "fake"
system_prompt = "You are main."
risk_profile = "trusted"
delegates = ["helper", "loner"]
[agents.helper]
provider = "fake"
system_prompt = "You are helper."
[agents.loner]
provider = "fake"
system_prompt = "You are loner."
context = false
`,
      (req) => {
        const who = agentOf(req);
        if (who !== 'main') return { kind: 'text', chunks: [`${who} answered`] };
        if (firstUser(req) === 'child task') return { kind: 'text', chunks: ['child answered'] };
        if (hasToolResults(req.body)) return { kind: 'text', chunks: ['all done'] };
        return {
          kind: 'tools',
          calls: [
            { id: 's1', name: 'spawn_subagent', args: { prompt: 'child task' } },
            { id: 'd1', name: 'delegate', args: { agent: 'helper', prompt: 'help me' } },
            { id: 'd2', name: 'delegate', args: { agent: 'loner', prompt: 'alone' } },
          ],
        };
      },
    );
    await runtime.startTurn('go');
    const reqs = server.requests;
    const root = reqs.find((r) => agentOf(r) === 'main' && firstUser(r) === 'go')!;
    const child = reqs.find((r) => agentOf(r) === 'main' && firstUser(r) === 'child task')!;
    const helper = reqs.find((r) => agentOf(r) === 'helper')!;
    const loner = reqs.find((r) => agentOf(r) === 'loner')!;
    for (const r of [root, child, helper, loner]) expect(r).toBeDefined();
    expect(systemOf(root)).toMatch(/^You are main\.\n\n# Project context\n/);
    expect(systemOf(root)).toContain(RULE);
    expect(systemOf(child)).toBe(systemOf(root));
    expect(systemOf(helper)).toContain(RULE);
    expect(systemOf(loner)).toBe('You are loner.');
    const results = runtime.store.getState().transcript.filter((i) => i.kind === 'tool');
    expect(results.map((i) => (i.kind === 'tool' ? i.status : ''))).toEqual(['ok', 'ok', 'ok']);
  });

  it('not the root when its own definition says context = false; /context reports it', async () => {
    const { runtime, server } = await world(
      `
[agents.main]
provider = "fake"
system_prompt = "You are main."
context = false
`,
      () => ({ kind: 'text', chunks: ['ok'] }),
    );
    await runtime.startTurn('hi');
    expect(systemOf(server.requests[0])).toBe('You are main.');
    const report = runtime.projectContext();
    expect(report?.agentOptedOut).toBe(true);
    expect(report?.files).toHaveLength(1);
    expect(report).not.toHaveProperty('text');
  });

  it('[context] max_kb = 0 sends none', async () => {
    const { runtime, server } = await world(
      `
[context]
max_kb = 0
[agents.main]
provider = "fake"
system_prompt = "You are main."
`,
      () => ({ kind: 'text', chunks: ['ok'] }),
    );
    await runtime.startTurn('hi');
    expect(systemOf(server.requests[0])).toBe('You are main.');
    expect(runtime.projectContext!()).toMatchObject({ maxKb: 0, files: [] });
  });
});
