// What the rest of arbor (the store, /mcp, the status bar) knows of an MCP server: a view
// with every server-supplied string already neutralised. The connections themselves live
// in src/mcp/; the UI sees only this.

export type McpServerStatus = 'starting' | 'ready' | 'failed' | 'needs-sign-in' | 'disabled' | 'stopped';
export type McpTransportKind = 'stdio' | 'http' | 'sse';

export interface McpToolView {
  /** The name the model calls: mcp__<server>__<tool>. */
  name: string;
  /** The server's own name for it. */
  serverTool: string;
  description: string;
  readOnly: boolean;
}

export interface McpServerView {
  name: string;
  status: McpServerStatus;
  /** The transport in use (url servers: http, or sse after falling back). */
  transport: McpTransportKind;
  tools: McpToolView[];
  /** Why it failed (with the tail of its stderr for stdio servers). */
  error?: string;
  /** Tools left out of a ready server (a name clash renamed, an invalid schema dropped). */
  warnings?: string[];
}
