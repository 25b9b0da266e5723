// An SDK MCP server over stdio, written into a sandbox, whose one tool calls elicitInput and
// records the answer it got: what the MCP form and URL-request pty tests start arbor against.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import type { Term } from '../support/terminal.js';
import { messagesOf } from '../support/wireBody.js';

const sdk = (p: string) => pathToFileURL(resolve('node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;

export interface ElicitingServer {
  /** Where the server writes each answer it receives (one JSON per call, replaced). */
  out: string;
  /** The [mcp_servers.<name>] table that starts it. */
  toml: string;
}

/** Writes server `name` into `dir`: its tool `tool` asks with `request` (the JS source of
 * elicitInput's argument) and answers "answered <action>". */
export function elicitingServer(dir: string, opts: { name: string; tool: string; description: string; request: string }): ElicitingServer {
  const script = join(dir, `${opts.name}-server.mjs`);
  const out = join(dir, 'answer.json');
  writeFileSync(
    script,
    `
import { renameSync, writeFileSync } from 'node:fs';
import { McpServer } from '${sdk('server/mcp.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
const server = new McpServer({ name: '${opts.name}', version: '1' });
server.registerTool('${opts.tool}', { description: '${opts.description}' }, async () => {
  const r = await server.server.elicitInput(${opts.request});
  // Written whole, then renamed: the test reads it as soon as it exists.
  writeFileSync(${JSON.stringify(out + '.tmp')}, JSON.stringify(r));
  renameSync(${JSON.stringify(out + '.tmp')}, ${JSON.stringify(out)});
  return { content: [{ type: 'text', text: 'answered ' + r.action }] };
});
await server.connect(new StdioServerTransport());
`,
  );
  const toml = `
[mcp_servers.${opts.name}]
command = "${process.execPath}"
args = ["${script}"]
startup_timeout_secs = 30
`;
  return { out, toml };
}

/** The answer the server received next (it is then removed, for the one after). */
export async function answered(term: Term, out: string): Promise<unknown> {
  await term.waitFor(() => existsSync(out), 'the server to receive the answer', 30000);
  const r = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out);
  return r;
}

/** A model that calls `tool` (call id `<prefix><message count>`) until a tool result comes back, then says `done`. */
export function callsUntilResult(tool: string, done: string, prefix: string) {
  return ({ body }: LoopbackIncoming): LoopbackReply => {
    if (messagesOf(body).at(-1)?.role === 'tool') return { kind: 'text', chunks: [done] };
    return { kind: 'tools', calls: [{ id: `${prefix}${messagesOf(body).length}`, name: tool, args: {} }] };
  };
}
