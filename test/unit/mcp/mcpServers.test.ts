// MCP servers as tools, against the REAL everything and filesystem servers over stdio: the
// tools the model is offered (names, schemas), calls at the root, in a spawn_subagent child
// and in bounded delegates, policy (globs, exclusions, readOnlyHint trust), results
// (text, images, errors), the servers' environment, crashes and restarts, and that no
// server process outlives the runtime.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEADLESS_DENIED } from '../../../src/runtime/approvals.js';
import { UNKNOWN_TOOL } from '../../../src/runtime/toolCall.js';
import { MCP_SERVERS_UNAVAILABLE } from '../../../src/tools/mcpTools.js';
import { callsThenDone, lastToolResult, sequence, text, until } from '../delegate/helpers.js';
import { hasToolResults, type LoopbackReply } from '../../support/loopbackModel.js';
import {
  agentToml,
  everything,
  filesystem,
  isChildWith,
  mcpFixture,
  mcpServerPids,
  nodeServer,
  SECRET_ENV,
  spawnsChildThatCalls,
  systemText,
  toolNames,
  toolSpec,
} from './helpers.js';

const call = (name: string, args: object, id = 'm1') => ({ kind: 'tools' as const, calls: [{ id, name, args }] });
const trusted = `[risk_profiles.mcp]\nauto_approve = ["mcp__ev__*", "mcp__fs__*"]\ndelegation_policy = { mode = "allow" }\n`;

/** One turn of main (the ev and fs servers configured, main's own keys `mainFields`)
 * delegating "work" to the first of `delegates` (alias: its own keys; each agentic under the
 * mcp profile), which makes `calls` and answers. What that delegate was sent, and the tools
 * it was offered first. */
async function delegatedTurn(mainFields: string, delegates: Record<string, string>, calls: LoopbackReply[]) {
  const alias = Object.keys(delegates)[0];
  const tables = Object.entries(delegates).map(([a, fields]) =>
    agentToml(a, `risk_profile = "mcp"\nruntime_profile = "agentic"\n${fields}`),
  );
  const fx = await mcpFixture({
    config: (_u, dir) => `${everything()}${filesystem(dir)}${trusted}
[runtime_profiles.agentic]
agentic = true
${agentToml('main', `risk_profile = "mcp"\n${mainFields}`)}
${tables.join('')}`,
    agents: {
      main: sequence(call('delegate', { agent: alias, prompt: 'work' }, 'd1'), text('root done')),
      [alias]: sequence(...calls, text(`${alias} done`)),
    },
  });
  await fx.runtime.startTurn('go');
  const sent = fx.requestsOf(alias);
  return { fx, sent, offered: toolNames(sent[0]) };
}

describe('tools from real servers', () => {
  it('are offered as mcp__<server>__<tool> with the server schema, and a root call returns text', async () => {
    const fx = await mcpFixture({
      config: (_u, dir) => `${everything()}${filesystem(dir)}${trusted}${agentToml('main', 'risk_profile = "mcp"')}`,
      agents: { main: callsThenDone(call('mcp__ev__echo', { message: 'hello from the model' })) },
    });
    writeFileSync(join(fx.workdir, 'note.txt'), 'file body');
    await fx.runtime.startTurn('go');
    const first = fx.requestsOf('main')[0];
    const names = toolNames(first);
    expect(names).toContain('mcp__ev__echo');
    expect(names).toContain('mcp__ev__get-sum');
    expect(names).toContain('mcp__fs__read_text_file');
    const echo = toolSpec(first, 'mcp__ev__echo');
    expect(echo.description).toMatch(/echo/i);
    expect(echo.parameters.properties?.message.type).toBe('string');
    expect(toolSpec(first, 'mcp__fs__read_text_file').parameters.required).toContain('path');
    expect(lastToolResult(fx.requestsOf('main')[1])).toBe('Echo: hello from the model');
    const views = fx.runtime.store.getState().mcpServers!;
    expect(views.map((v) => [v.name, v.status, v.transport])).toEqual([
      ['ev', 'ready', 'stdio'],
      ['fs', 'ready', 'stdio'],
    ]);
    expect(views[0].tools.find((t) => t.name === 'mcp__ev__echo')?.readOnly).toBe(true);
  }, 60_000);

  it('images come back as [image: mime, size]; the filesystem server reads the workspace', async () => {
    let dir = '';
    const fx = await mcpFixture({
      config: (_u, d) => {
        dir = d;
        return `${everything()}${filesystem(d)}${trusted}${agentToml('main', 'risk_profile = "mcp"')}`;
      },
      agents: {
        main: sequence(
          call('mcp__ev__get-tiny-image', {}),
          () => call('mcp__fs__read_text_file', { path: join(dir, 'note.txt') }, 'm2'),
          text('done'),
        ),
      },
    });
    writeFileSync(join(fx.workdir, 'note.txt'), 'file body');
    await fx.runtime.startTurn('go');
    const reqs = fx.requestsOf('main');
    expect(lastToolResult(reqs[1])).toMatch(/\[image: image\/png, \d+(\.\d)? (B|KB)\]/);
    expect(lastToolResult(reqs[2])).toBe('file body');
  }, 60_000);

  it('a server gets no provider key or bearer variable, only its own env and the reaper marker', async () => {
    const fx = await mcpFixture({
      config: () => `${everything()}${trusted}${agentToml('main', 'risk_profile = "mcp"')}`,
      agents: { main: callsThenDone(call('mcp__ev__get-env', {})) },
    });
    await fx.runtime.startTurn('go');
    const out = lastToolResult(fx.requestsOf('main')[1]);
    expect(out).toContain('LOG_LEVEL');
    expect(out).toContain('ARBOR_TOOL_RUN');
    expect(out).not.toContain(SECRET_ENV.OPENAI_API_KEY);
    expect(out).not.toContain('OPENAI_API_KEY');
    expect(out).not.toContain(SECRET_ENV.FS_TOKEN);
  }, 60_000);
});

describe('policy', () => {
  it('an excluded MCP tool (by glob) is not offered, and calling it is refused', async () => {
    const fx = await mcpFixture({
      config: () =>
        `${everything()}[risk_profiles.mcp]\nauto_approve = ["mcp__ev__*"]\nexcluded_tools = ["mcp__ev__get-e*"]\n${agentToml('main', 'risk_profile = "mcp"')}`,
      agents: { main: callsThenDone(call('mcp__ev__get-env', {})) },
    });
    await fx.runtime.startTurn('go');
    const [first, second] = fx.requestsOf('main');
    expect(toolNames(first)).toContain('mcp__ev__echo');
    expect(toolNames(first)).not.toContain('mcp__ev__get-env');
    expect(lastToolResult(second)).toBe(UNKNOWN_TOOL('mcp__ev__get-env', toolNames(first)));
  }, 60_000);

  it('an MCP tool asks by default; readOnlyHint runs unasked only with trust_read_only_mcp', async () => {
    let fx = await mcpFixture({
      config: () => `${everything()}${agentToml('main')}`,
      agents: { main: callsThenDone(call('mcp__ev__echo', { message: 'x' })) },
    });
    await fx.runtime.startTurn('go');
    expect(lastToolResult(fx.requestsOf('main')[1])).toBe(HEADLESS_DENIED('mcp__ev__echo'));
    await fx.cleanup();
    fx = await mcpFixture({
      config: (_u, dir) =>
        `${everything()}${filesystem(dir)}[risk_profiles.ro]\ntrust_read_only_mcp = true\n${agentToml('main', 'risk_profile = "ro"')}`,
      agents: {
        main: sequence(
          call('mcp__ev__echo', { message: 'trusted' }),
          call('mcp__fs__write_file', { path: 'x.txt', content: 'no' }, 'm2'),
          text('done'),
        ),
      },
    });
    await fx.runtime.startTurn('go');
    const reqs = fx.requestsOf('main');
    expect(lastToolResult(reqs[1])).toBe('Echo: trusted');
    // write_file is not read-only: it still asks, and headless nobody can answer.
    expect(lastToolResult(reqs[2])).toBe(HEADLESS_DENIED('mcp__fs__write_file'));
  }, 60_000);

  it('an agent sees only its mcp_servers', async () => {
    const fx = await mcpFixture({
      config: (_u, dir) => `${everything()}${filesystem(dir)}${trusted}${agentToml('main', 'risk_profile = "mcp"\nmcp_servers = ["fs"]')}`,
      agents: { main: () => text('ok') },
    });
    await fx.runtime.startTurn('go');
    const names = toolNames(fx.requestsOf('main')[0]);
    expect(names.some((n) => n.startsWith('mcp__fs__'))).toBe(true);
    expect(names.some((n) => n.startsWith('mcp__ev__'))).toBe(false);
  }, 60_000);
});

describe('children', () => {
  it('a spawn_subagent child gets its parent MCP tools and calls one; its trace record lists them', async () => {
    const fx = await mcpFixture({
      config: () => `${everything()}${trusted}${agentToml('main', 'risk_profile = "mcp"')}`,
      agents: { main: spawnsChildThatCalls(call('mcp__ev__echo', { message: 'from child' }, 'c1')) },
    });
    await fx.runtime.startTurn('go');
    const childReqs = fx.requestsOf('main').filter((r) => isChildWith(r, 'child task'));
    expect(toolNames(childReqs[0])).toContain('mcp__ev__echo');
    expect(lastToolResult(childReqs[1])).toBe('Echo: from child');
    const started = fx.traces.find((e) => e.event === 'run_started' && e.parent_run_id !== undefined);
    expect(started?.tools).toContain('mcp__ev__echo');
  }, 60_000);

  it('a bounded delegate gets the intersection of its own servers and its caller tools', async () => {
    const {
      fx,
      sent: helper,
      offered,
    } = await delegatedTurn(
      'mcp_servers = ["ev", "fs"]\ndelegates = ["helper", "narrow"]',
      { helper: 'mcp_servers = ["ev"]', narrow: '' },
      [call('mcp__ev__echo', { message: 'from delegate' }, 'h1'), call('mcp__fs__list_allowed_directories', {}, 'h2')],
    );
    expect(offered).toContain('mcp__ev__echo');
    expect(offered.some((n) => n.startsWith('mcp__fs__'))).toBe(false);
    expect(lastToolResult(helper[1])).toBe('Echo: from delegate');
    // Outside its set: refused as a tool it does not have.
    expect(lastToolResult(helper[2])).toBe(UNKNOWN_TOOL('mcp__fs__list_allowed_directories', offered));
    const started = fx.traces.find((e) => e.event === 'run_started' && e.agent_alias === 'helper');
    expect(started?.tools).toEqual(offered);
  }, 60_000);

  it('a bounded delegate never gets an MCP tool its caller lacks', async () => {
    const { sent: helper, offered } = await delegatedTurn('mcp_servers = ["fs"]\ndelegates = ["helper"]', { helper: '' }, [
      call('mcp__ev__echo', { message: 'escalate' }, 'h1'),
    ]);
    expect(offered.some((n) => n.startsWith('mcp__fs__'))).toBe(true);
    expect(offered.some((n) => n.startsWith('mcp__ev__'))).toBe(false);
    expect(lastToolResult(helper[1])).toBe(UNKNOWN_TOOL('mcp__ev__echo', offered));
  }, 60_000);
});

describe('independent delegates', () => {
  it('an independent delegate gets its own servers, not its caller set', async () => {
    const { sent: ind, offered } = await delegatedTurn(
      'mcp_servers = ["fs"]\ndelegates = [{ agent = "ind", mode = "independent" }]',
      { ind: 'mcp_servers = ["ev"]' },
      [call('mcp__ev__echo', { message: 'own server' }, 'i1')],
    );
    expect(offered).toContain('mcp__ev__echo');
    expect(offered.some((n) => n.startsWith('mcp__fs__'))).toBe(false);
    expect(lastToolResult(ind[1])).toBe('Echo: own server');
  }, 60_000);
});

describe('lifecycle', () => {
  it('a server that fails to start is shown failed with its stderr, and the turn goes on without it', async () => {
    const fx = await mcpFixture({
      config: () =>
        `${nodeServer('bad', ['-e', "console.error('boom: no database'); process.exit(3)"], '')}${everything()}${trusted}${agentToml('main', 'risk_profile = "mcp"')}`,
      agents: { main: () => text('answer without it') },
    });
    await fx.runtime.startTurn('go');
    const bad = fx.runtime.store.getState().mcpServers!.find((s) => s.name === 'bad')!;
    expect(bad.status).toBe('failed');
    expect(bad.error).toContain('boom: no database');
    const req = fx.requestsOf('main')[0];
    expect(systemText(req)).toContain(MCP_SERVERS_UNAVAILABLE(['bad']));
    expect(toolNames(req)).toContain('mcp__ev__echo');
    const s = fx.runtime.store.getState();
    expect(s.runs.get(s.runOrder[0])!.status).toBe('completed');
    expect(s.transcript.some((i) => i.kind === 'notice' && i.text.includes('bad'))).toBe(true);
  }, 60_000);

  it('a turn waits for a server still starting only up to its startup timeout', async () => {
    const fx = await mcpFixture({
      config: () => `${nodeServer('mute', ['-e', 'setInterval(() => {}, 1000)'], 'startup_timeout_secs = 1')}${agentToml('main')}`,
      agents: { main: () => text('went on') },
    });
    const started = Date.now();
    await fx.runtime.startTurn('go');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(8000);
    expect(systemText(fx.requestsOf('main')[0])).toContain(MCP_SERVERS_UNAVAILABLE(['mute']));
    expect(fx.runtime.store.getState().mcpServers![0].error).toContain('did not start within 1 s');
    // The user is told which server the turn went without.
    expect(
      fx.runtime.store.getState().transcript.some((i) => i.kind === 'notice' && i.text.includes('not ready') && i.text.includes('mute')),
    ).toBe(true);
  }, 30_000);

  it('a server that crashes mid-session is failed, the next turn goes on, and a restart brings it back', async () => {
    const fx = await mcpFixture({
      config: () => `${everything()}${trusted}${agentToml('main', 'risk_profile = "mcp"')}`,
      agents: { main: () => text('ok') },
    });
    await fx.runtime.startTurn('one');
    const [pid] = mcpServerPids();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    await until(() => fx.runtime.store.getState().mcpServers![0].status === 'failed', 5000, 'server failed');
    expect(fx.runtime.store.getState().mcpServers![0].error).toContain('the server exited');
    await fx.runtime.startTurn('two');
    const second = fx.requestsOf('main').at(-1)!;
    expect(toolNames(second).some((n) => n.startsWith('mcp__ev__'))).toBe(false);
    expect(systemText(second)).toContain(MCP_SERVERS_UNAVAILABLE(['ev']));
    await fx.runtime.mcpRestart!('ev');
    expect(fx.runtime.store.getState().mcpServers![0].status).toBe('ready');
    expect(mcpServerPids()).toHaveLength(1);
    await expect(fx.runtime.mcpRestart!('nope')).rejects.toThrow(/nope.*ev/);
  }, 60_000);

  it('closing while servers start leaves no process (restart and dispose mid-start)', async () => {
    const fx = await mcpFixture({ config: () => `${everything()}${everything('ev2')}${agentToml('main')}`, agents: {} });
    // Both are starting now; one is restarted at once, then the runtime ends before either is up.
    const restarted = fx.runtime.mcpRestart!('ev2').then(
      () => undefined,
      () => undefined,
    );
    await fx.runtime.dispose();
    await until(() => mcpServerPids().length === 0, 8000, 'no server process after a mid-start close');
    // The restart asked for mid-start is the one thing that could still start a process: once
    // it has settled, nothing is left to spawn one.
    await restarted;
    expect(mcpServerPids()).toEqual([]);
  }, 30_000);

  it('one process per server for the whole tree; Esc mid-call and the runtime end leave none', async () => {
    const fx = await mcpFixture({
      config: () => `${everything()}${trusted}${agentToml('main', 'risk_profile = "mcp"')}`,
      agents: {
        main: (req) => {
          if (isChildWith(req, 'child task')) return call('mcp__ev__trigger-long-running-operation', { duration: 30, steps: 3 }, 'c1');
          return hasToolResults(req.body) ? text('root done') : call('spawn_subagent', { prompt: 'child task' }, 's1');
        },
      },
    });
    const turn = fx.runtime.startTurn('go');
    await until(
      () =>
        fx.runtime.store
          .getState()
          .runs.values()
          .some((r) => r.lastTool?.name === 'mcp__ev__trigger-long-running-operation'),
      20_000,
      'child calling the server',
    );
    expect(mcpServerPids()).toHaveLength(1);
    fx.runtime.interrupt();
    await turn;
    expect(mcpServerPids()).toHaveLength(1);
    await fx.runtime.dispose();
    expect(mcpServerPids()).toHaveLength(0);
  }, 60_000);
});
