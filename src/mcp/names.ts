// Tool names the model sees for MCP tools: mcp__<server>__<tool>. Providers accept
// [A-Za-z0-9_-]{1,64}, so a server's tool name is reduced to that alphabet and the whole
// name cut to 64 characters; the server is always called with its own name.

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
