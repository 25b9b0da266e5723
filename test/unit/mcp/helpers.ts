// A runtime wired as the CLI wires it (delegate tool and services, the MCP manager from
// tools/mcpTools.ts) against REAL MCP servers (the everything and filesystem packages over
// stdio) and a loopback model scripted per agent ("You are <alias>." in its system prompt).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TraceEvent } from '../../../src/persistence/traceLog.js';
import { type Runtime } from '../../../src/runtime/runtime.js';
import { createMcpManager } from '../../../src/tools/mcpTools.js';
import { type LoopbackIncoming, type LoopbackModel, type LoopbackReply } from '../../support/loopbackModel.js';
import { scriptedRuntime } from '../delegate/helpers.js';

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

export async function mcpFixture(opts: {
  config: (url: string, workdir: string) => string;
  agents: Record<string, Responder>;
  /** An operator answers (the chat); default headless. */
  interactive?: boolean;
  /** More environment for the runtime (beside SECRET_ENV). */
  env?: Record<string, string>;
}): Promise<McpFixture> {
  const traces: TraceEvent[] = [];
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
  return ((req.body?.tools ?? []) as any[]).map((t) => t.function?.name as string);
}

export function toolSpec(req: LoopbackIncoming, name: string): any {
  return ((req.body?.tools ?? []) as any[]).find((t) => t.function?.name === name)?.function;
}

export function systemText(req: LoopbackIncoming): string {
  const s = (req.body?.messages ?? []).find((m: any) => m.role === 'system');
  return typeof s?.content === 'string' ? s.content : '';
}
