// Tool names the model sees for MCP tools: mcp__<server>__<tool>. Providers accept
// [A-Za-z0-9_-]{1,64}, so a server's tool name is reduced to that alphabet and the whole
// name cut to 64 characters; the server is always called with its own name.

import { createHash } from 'node:crypto';

export const MCP_PREFIX = 'mcp__';
const MAX_TOOL_NAME = 64;

export function mcpToolName(server: string, tool: string): string {
  const safe = tool.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
  return `${MCP_PREFIX}${server}__${safe}`.slice(0, MAX_TOOL_NAME);
}

/** The server a tool name belongs to, or undefined for a built-in tool. */
export function mcpServerOf(toolName: string): string | undefined {
  if (!toolName.startsWith(MCP_PREFIX)) return undefined;
  const rest = toolName.slice(MCP_PREFIX.length);
  const end = rest.indexOf('__');
  return end > 0 ? rest.slice(0, end) : undefined;
}

/** The model's names for one server's tools, in order: each distinct. A name that clashes
 * with an earlier one once reduced or cut gets a short suffix from a hash of the server's
 * own name (so it is the same every start); `renamed` says which changed. */
export function assignToolNames(server: string, tools: readonly string[]): { names: string[]; renamed: string[] } {
  const taken = new Set<string>();
  const names: string[] = [];
  const renamed: string[] = [];
  for (const tool of tools) {
    const base = mcpToolName(server, tool);
    let name = base;
    for (let n = 0; taken.has(name); n++) {
      const hash = createHash('sha256')
        .update(n === 0 ? tool : `${tool}\0${n}`)
        .digest('hex')
        .slice(0, 6);
      name = `${base.slice(0, MAX_TOOL_NAME - 7)}_${hash}`;
    }
    if (name !== base) renamed.push(`tool '${tool}' is offered as ${name} (${base} was taken)`);
    taken.add(name);
    names.push(name);
  }
  return { names, renamed };
}
