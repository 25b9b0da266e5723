// MCP tools as arbor tools: each tool of each ready server becomes `mcp__<server>__<tool>`
// with the server's JSON Schema and description, and from there is a tool like any other
// (policy, ceilings, approvals, the loop's cards). The call goes to the one shared
// connection of its server. Also here: how the manager is wired to arbor's process rules
// (the server's environment is a tool subprocess's, and the reaper knows its marker).
import { join } from 'node:path';
import { arborHome } from '../config/paths.js';
import type { ArborConfig } from '../config/types.js';
import { McpCallError, type McpToolInfo } from '../mcp/connection.js';
import { McpManager } from '../mcp/manager.js';
import { assignToolNames, mcpServerOf, mcpToolName } from '../mcp/names.js';
import { z } from 'zod';
import type { McpDisplay } from '../model/toolDisplay.js';
import { defineTool } from './defineTool.js';
import { registerToolProcess, terminateToolRun } from './processReaper.js';
import { toolSubprocessEnv } from './toolEnv.js';
import { fail, ok, type Tool } from './types.js';

/** What the model reads when a server its agent sees was not ready when the turn began. */
export const MCP_SERVERS_UNAVAILABLE = (names: string[]) =>
  `Note: these MCP servers are not available in this turn (still starting or failed), so their tools are missing: ${names.join(', ')}.`;

/** How long a closing server gets after SIGTERM before its processes are SIGKILLed. */
const SERVER_KILL_GRACE_MS = 1000;

function inputSchema(info: McpToolInfo): Record<string, unknown> {
  const schema = { ...info.inputSchema };
  // The protocol requires an object schema; a server that sends none still gets called.
  if (schema.type !== 'object') return { type: 'object', properties: {} };
  delete schema.$schema;
  return schema;
}

/** The server checks its own arguments: arbor passes any object through unchanged. */
const mcpArgs = z.record(z.string(), z.unknown());

export function createMcpTool(manager: McpManager, server: string, info: McpToolInfo, modelName?: string): Tool {
  const name = modelName ?? mcpToolName(server, info.name);
  const description = info.description || `Tool '${info.name}' of MCP server '${server}'.`;
  const parameters = inputSchema(info);
  const display = (isError: boolean): McpDisplay => ({ kind: 'mcp', server, tool: info.name, isError });
  return defineTool({
    name,
    args: mcpArgs,
    prepare: (raw) => raw ?? {},
    argsError: () => `Invalid arguments for ${name}: arguments must be a JSON object.`,
    parameters: () => parameters,
    description: () => description,
    asksByDefault: true,
    readOnlyHint: info.readOnly,
    async run(args, ctx) {
      const conn = manager.connection(server);
      if (!conn) return fail(`MCP server '${server}' is not configured`, display(true));
      try {
        const result = await conn.callTool(info.name, (args ?? {}) as Record<string, unknown>, ctx.signal, ctx.runId);
        return result.isError ? fail(result.text, display(true)) : ok(result.text, display(false));
      } catch (err) {
        if (ctx.signal.aborted) return fail('aborted', display(true));
        if (err instanceof McpCallError) return fail(err.message, display(true));
        return fail(`MCP server '${server}': ${(err as Error).message}`, display(true));
      }
    },
  });
}

/** The tools of `servers` that are ready now, in server order. */
export function mcpToolsOf(manager: McpManager, servers: readonly string[]): Tool[] {
  const out: Tool[] = [];
  const seen = new Set<string>();
  for (const server of servers) {
    const conn = manager.connection(server);
    if (conn?.status !== 'ready') continue;
    const { names } = assignToolNames(
      server,
      conn.tools.map((t) => t.name),
    );
    for (const [i, info] of conn.tools.entries()) {
      const tool = createMcpTool(manager, server, info, names[i]);
      // Names are distinct within a server; across servers a cut name could still clash.
      if (seen.has(tool.name)) continue;
      seen.add(tool.name);
      out.push(tool);
    }
  }
  return out;
}

/** Whether an agent that sees `servers` may hold `toolName` (built-ins always). */
export function agentSeesTool(servers: readonly string[] | undefined, toolName: string): boolean {
  const server = mcpServerOf(toolName);
  return server === undefined || servers === undefined || servers.includes(server);
}

/** The manager for a config's `[mcp_servers]` (not started). A stdio server's environment
 * is a tool subprocess's (no provider keys, no bearer variables, nothing passed through)
 * plus the entry's own env; its reaper marker makes every exit path end it. */
export function createMcpManager(config: ArborConfig, cwd: string, env: NodeJS.ProcessEnv = process.env): McpManager {
  const servers = Object.values(config.mcp_servers ?? {});
  // Bearer, OAuth client-secret and IdP (ID token, IdP secret) variables never reach a
  // server's (or any tool's) process.
  const bearerNames = servers.flatMap((s) =>
    [s.bearer_token_env, s.oauth?.client_secret_env, s.idp?.client_secret_env, s.idp?.id_token_env].filter(
      (n): n is string => n !== undefined,
    ),
  );
  return new McpManager(servers, {
    cwd,
    env,
    authDir: join(arborHome(env), 'mcp-auth'),
    spawnEnv: () => toolSubprocessEnv({ config, profiles: [], extraSecretNames: bearerNames, base: env }),
    processStarted: (marker) => registerToolProcess(marker, 0),
    processEnded: (marker) => terminateToolRun(marker, 0, SERVER_KILL_GRACE_MS),
  });
}
