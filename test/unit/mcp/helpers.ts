// A runtime wired as the CLI wires it (delegate tool and services, the MCP manager from
// tools/mcpTools.ts) against REAL MCP servers (the everything and filesystem packages over
// stdio) and a loopback model scripted per agent ("You are <alias>." in its system prompt).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { onTestFinished } from 'vitest';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import type { McpManager } from '../../../src/mcp/manager.js';
import type { TraceEvent } from '../../../src/persistence/traceLog.js';
import { type Runtime } from '../../../src/runtime/runtime.js';
import { createMcpManager } from '../../../src/tools/mcpTools.js';
import { hasToolResults, type LoopbackIncoming, type LoopbackModel, type LoopbackReply } from '../../support/loopbackModel.js';
import { until } from '../../support/until.js';
import { messagesOf } from '../../support/wireBody.js';
import { offeredTool, offeredTools, type WireTool } from '../../support/wireRequest.js';
import { scriptedRuntime, text } from '../delegate/helpers.js';

export const BIN = resolve('node_modules/.bin');
export const EVERYTHING = join(BIN, 'mcp-server-everything');
export const FILESYSTEM = join(BIN, 'mcp-server-filesystem');

export type Responder = (req: LoopbackIncoming, nth: number) => LoopbackReply | Promise<LoopbackReply>;

export interface McpFixture {
  server: LoopbackModel;
  runtime: Runtime;
  workdir: string;
  traces: TraceEvent[];
  requestsOf(alias: string): LoopbackIncoming[];
  cleanup(): Promise<void>;
}

/** The env the servers are started from: provider keys and a bearer variable that must
 * never reach them. */
export const SECRET_ENV = {
  OPENAI_API_KEY: 'sk-openai-secret-value-1234567890',
  FS_TOKEN: 'bearer-secret-value-0987654321',
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  ARBOR_RETRY_MAX: '0',
};

export const everything = (name = 'ev', extra = '') => `
[mcp_servers.${name}]
command = "${EVERYTHING}"
args = ["stdio"]
env = { LOG_LEVEL = "warn" }
startup_timeout_secs = 20
${extra}
`;

export const filesystem = (dir: string, name = 'fs') => `
[mcp_servers.${name}]
command = "${FILESYSTEM}"
args = ["${dir}"]
startup_timeout_secs = 20
`;

export const agentToml = (alias: string, fields = '') => `
[agents.${alias}]
provider = "fake"
system_prompt = "You are ${alias}."
${fields}
`;

/** A server this Node runs with `args` (a script of the test's, or -e code); `fields` adds
 * keys such as startup_timeout_secs. */
export const nodeServer = (name: string, args: string[], fields = 'startup_timeout_secs = 30') => `
[mcp_servers.${name}]
command = "${process.execPath}"
args = [${args.map((a) => JSON.stringify(a)).join(', ')}]
${fields}
`;

/** main under a profile "mcp" that runs `servers`' tools unasked; `fields` adds to the profile. */
export const mainTrusting = (servers: string[], fields = '') => `
[risk_profiles.mcp]
auto_approve = [${servers.map((s) => `"mcp__${s}__*"`).join(', ')}]
${fields}
${agentToml('main', 'risk_profile = "mcp"')}`;

/** Whether `req` is a spawned child's, whose task is `task`. */
export const isChildWith = (req: LoopbackIncoming, task: string) =>
  messagesOf(req.body).some((m) => m.role === 'user' && m.content === task);

/** main's script for one spawn_subagent child with the task "child task": the root spawns it
 * and answers "root done"; the child makes `childCall` and answers "child done". */
export function spawnsChildThatCalls(childCall: LoopbackReply): Responder {
  return (req) => {
    if (isChildWith(req, 'child task')) return hasToolResults(req.body) ? text('child done') : childCall;
    return hasToolResults(req.body)
      ? text('root done')
      : { kind: 'tools', calls: [{ id: 's1', name: 'spawn_subagent', args: { prompt: 'child task' } }] };
  };
}

/** When the test ends, checks that no MCP server process it started is left. Call it before
 * making what starts them: onTestFinished hooks run last-in first-out, so the check comes
 * after their own cleanup. */
function noServerLeftAtEnd(): void {
  onTestFinished(() => until(() => mcpServerPids().length === 0, 5000, 'no MCP server process left'));
}

export async function mcpFixture(opts: {
  config: (url: string, workdir: string) => string;
  agents: Record<string, Responder>;
  /** An operator answers (the chat); default headless. */
  interactive?: boolean;
  /** More environment for the runtime (beside SECRET_ENV). */
  env?: Record<string, string>;
}): Promise<McpFixture> {
  const traces: TraceEvent[] = [];
  noServerLeftAtEnd();
  const fx = await scriptedRuntime({
    name: 'mcp',
    config: (url, workdir) => `default_agent = "main"
[providers.fake]
type = "openai-compatible"
base_url = "${url}"
model = "fake-model"
${opts.config(url, workdir)}`,
    agents: opts.agents,
    env: SECRET_ENV,
    runtime: (config, { workdir }) => ({
      interactive: opts.interactive ?? false,
      env: { ...SECRET_ENV, ...opts.env },
      mcp: createMcpManager(config, workdir, SECRET_ENV),
      sinks: { trace: (e) => traces.push(e) },
    }),
  });
  return Object.assign(fx, { traces });
}

/** Child processes of this test process started as MCP servers (they carry the reaper's
 * marker, and their command line names the server package). */
export function mcpServerPids(): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || Number(fields[1]) !== process.pid) continue;
      if (!readFileSync(`/proc/${name}/environ`).includes('ARBOR_TOOL_RUN=')) continue;
      out.push(Number(name));
    } catch {
      // gone
    }
  }
  return out;
}

export function toolNames(req: LoopbackIncoming): string[] {
  return offeredTools(req.body).map((t) => t.name);
}

/** The offered tool `name`; fails naming it when it was not offered. */
export function toolSpec(req: LoopbackIncoming, name: string): WireTool {
  return offeredTool(req.body, name);
}

export function systemText(req: LoopbackIncoming): string {
  const s = messagesOf(req.body).find((m) => m.role === 'system');
  return typeof s?.content === 'string' ? s.content : '';
}

/** A config of the offline provider, a main agent and `servers` (TOML tables). */
export const offlineWith = (servers: string) => `[providers.o]\ntype = "offline"\n[agents.main]\nprovider = "o"\n${servers}`;

/** An MCP manager for `text` (a whole config), closed when the test ends, leaving no
 * server process. */
export function managerFor(text: string, home: string, env: Record<string, string>, file = '/c.toml'): McpManager {
  noServerLeftAtEnd();
  const loaded = loadConfigFromTexts([{ file, text }], env);
  const m = createMcpManager(loaded.config, home, env);
  onTestFinished(() => m.close());
  return m;
}
