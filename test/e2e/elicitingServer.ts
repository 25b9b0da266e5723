// An SDK MCP server over stdio, written into a sandbox, whose one tool calls elicitInput and
// records the answer it got: what the MCP form and URL-request pty tests start arbor against.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import type { Term } from '../support/terminal.js';
import { messagesOf } from '../support/wireBody.js';
import { send, type Sandbox } from './sandbox.js';

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

export type ElicitingSpec = Parameters<typeof elicitingServer>[1];

/** The chat against `server`, whose tools are auto-approved: `chat.prompt` is sent and the
 * server's first request is waited for (`chat.shown`: its prompt's title). The model calls
 * the server's tool until it gets a result, then says `chat.done`. */
export async function chatUntilAsked(
  sb: Sandbox,
  server: ElicitingSpec,
  chat: { prompt: string; shown: string; done: string },
): Promise<{ term: Term; out: string }> {
  const { out, toml } = elicitingServer(sb.h.dir, server);
  await sb.withModel(
    callsUntilResult(`mcp__${server.name}__${server.tool}`, chat.done, server.tool[0]),
    `${toml}\n[risk_profiles.default]\nauto_approve = ["mcp__${server.name}__*"]\n`,
  );
  const term = await sb.startArbor([], { cols: 120, rows: 40 });
  await send(term, chat.prompt);
  await term.waitForText(chat.shown, 30000);
  return { term, out };
}
