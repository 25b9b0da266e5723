// Which runs carry the project context, read in the loopback requests' system prompts: the
// root, its spawn_subagent children, and delegates unless their definition says
// `context = false`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProjectContext } from '../../../src/config/projectContext.js';
import { setLanguage } from '../../../src/i18n/index.js';
import { hasToolResults, type LoopbackIncoming } from '../../support/loopbackModel.js';
import { agent, agentOf, firstUser, scriptedRuntime, text, toml, type Responder } from '../delegate/helpers.js';
import { systemOf as systemText } from '../../support/wireBody.js';

beforeAll(() => setLanguage('en'));

const RULE = 'PROJECT RULE: answer in haiku';

const systemOf = (req: LoopbackIncoming): string => systemText(req.body);
const who = (req: LoopbackIncoming) => agentOf(req.body);

/** A repository with an AGENTS.md and a runtime of `agents` (told apart by "You are <x>."),
 * given the project context as the CLI gives it. */
function world(agents: string, scripts: Record<string, Responder>) {
  return scriptedRuntime({
    name: 'ctx-rt',
    config: (url) => toml(url, agents),
    agents: scripts,
    workspace: (repo) => {
      mkdirSync(join(repo, '.git'));
      writeFileSync(join(repo, 'AGENTS.md'), RULE);
    },
    runtime: (config, { home, workdir }) => ({
      projectContext: loadProjectContext({ cwd: workdir, home, maxKb: config.context?.max_kb }),
    }),
  });
}

describe('project context reaches', () => {
  it('the root, its spawn_subagent child, and a delegate; not a delegate with context = false', async () => {
    const { runtime, server } = await world(
      agent('main', 'risk_profile = "trusted"\ndelegates = ["helper", "loner"]') + agent('helper') + agent('loner', 'context = false'),
      {
        main: (req) => {
          if (firstUser(req) === 'child task') return text('child answered');
          if (hasToolResults(req.body)) return text('all done');
          return {
            kind: 'tools',
            calls: [
              { id: 's1', name: 'spawn_subagent', args: { prompt: 'child task' } },
              { id: 'd1', name: 'delegate', args: { agent: 'helper', prompt: 'help me' } },
              { id: 'd2', name: 'delegate', args: { agent: 'loner', prompt: 'alone' } },
            ],
          };
        },
        helper: () => text('helper answered'),
        loner: () => text('loner answered'),
      },
    );
    await runtime.startTurn('go');
    const reqs = server.requests;
    const root = reqs.find((r) => who(r) === 'main' && firstUser(r) === 'go')!;
    const child = reqs.find((r) => who(r) === 'main' && firstUser(r) === 'child task')!;
    const helper = reqs.find((r) => who(r) === 'helper')!;
    const loner = reqs.find((r) => who(r) === 'loner')!;
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
    const { runtime, server } = await world(agent('main', 'context = false'), { main: () => text('ok') });
    await runtime.startTurn('hi');
    expect(systemOf(server.requests[0])).toBe('You are main.');
    const report = runtime.projectContext();
    expect(report?.agentOptedOut).toBe(true);
    expect(report?.files).toHaveLength(1);
    expect(report).not.toHaveProperty('text');
  });

  it('[context] max_kb = 0 sends none', async () => {
    const { runtime, server } = await world('[context]\nmax_kb = 0\n' + agent('main'), { main: () => text('ok') });
    await runtime.startTurn('hi');
    expect(systemOf(server.requests[0])).toBe('You are main.');
    expect(runtime.projectContext!()).toMatchObject({ maxKb: 0, files: [] });
  });
});
