// A server's URL-mode request in the chat (a real pty, the built app): an SDK MCP server
// over stdio whose tool asks the operator to visit a page. The prompt shows the message
// (its escape neutralised) and the URL; nothing opens it by itself; "I've done it" sends
// accept; a second request is declined with Ctrl+X. Headless (-p) declines, --yes included.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeAllTerminals, type Term } from '../support/terminal.js';
import { sandbox, send } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const sdk = (p: string) => pathToFileURL(resolve('node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;

const serverScript = (out: string) => `
import { renameSync, writeFileSync } from 'node:fs';
import { McpServer } from '${sdk('server/mcp.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
const server = new McpServer({ name: 'links', version: '1' });
server.registerTool('connect', { description: 'asks to visit a page' }, async () => {
  const r = await server.server.elicitInput({
    mode: 'url',
    message: 'Connect your Acme account\\u001b[2J',
    url: 'https://acme.example/connect?state=42',
    elicitationId: 'e-42',
  });
  // Written whole, then renamed: the test reads it as soon as it exists.
  writeFileSync(${JSON.stringify(out + '.tmp')}, JSON.stringify(r));
  renameSync(${JSON.stringify(out + '.tmp')}, ${JSON.stringify(out)});
  return { content: [{ type: 'text', text: 'answered ' + r.action }] };
});
await server.connect(new StdioServerTransport());
`;

async function answered(term: Term, out: string): Promise<unknown> {
  await term.waitFor(() => existsSync(out), 'the server to receive the answer', 30000);
  const r = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out);
  return r;
}

describe.runIf(process.platform === 'linux')('MCP URL requests in the chat', () => {
  it('headless declines a URL request even with --yes, and says why', { timeout: 60000 }, async (ctx) => {
    const sb = sandbox(ctx);
    const script = join(sb.h.dir, 'links-server.mjs');
    const out = join(sb.h.dir, 'answer.json');
    writeFileSync(script, serverScript(out));
    await sb.withModel(
      ({ body }) => {
        if (body.messages?.at(-1)?.role === 'tool') return { kind: 'text', chunks: ['link done'] };
        return { kind: 'tools', calls: [{ id: 'c1', name: 'mcp__links__connect', args: {} }] };
      },
      `
[mcp_servers.links]
command = "${process.execPath}"
args = ["${script}"]
startup_timeout_secs = 30
`,
    );
    const r = await sb.arbor(['-p', 'connect it', '--yes']);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ action: 'decline' });
    expect(r.stderr).toContain(
      'MCP server links asked to have a page visited, but a URL needs a person: declined (headless declines URL requests, --yes included).',
    );
  });

  it('shows the message and the URL; "I\'ve done it" accepts; Ctrl+X declines', { timeout: 150000 }, async (ctx) => {
    const sb = sandbox(ctx);
    const script = join(sb.h.dir, 'links-server.mjs');
    const out = join(sb.h.dir, 'answer.json');
    writeFileSync(script, serverScript(out));
    await sb.withModel(
      ({ body }) => {
        const last = body.messages?.at(-1);
        if (last?.role === 'tool') return { kind: 'text', chunks: ['link done'] };
        return { kind: 'tools', calls: [{ id: `c${body.messages?.length ?? 0}`, name: 'mcp__links__connect', args: {} }] };
      },
      `
[mcp_servers.links]
command = "${process.execPath}"
args = ["${script}"]
startup_timeout_secs = 30

[risk_profiles.default]
auto_approve = ["mcp__links__*"]
`,
    );
    const term = await sb.startArbor([], { cols: 120, rows: 40 });
    await send(term, 'connect it');
    await term.waitForText('MCP link: server links asks main to visit a page', 30000);
    await term.waitForText('Connect your Acme account', 5000);
    await term.waitForText('URL:', 5000);
    await term.waitForText('https://acme.example/connect?state=42', 5000);
    await term.waitForText('[Open in browser]', 5000);
    await term.waitForText("[I've done it]", 5000);
    expect(term.screen()).not.toContain('\u001b[2J');
    // Down to "I've done it", Enter: accept.
    term.press('down');
    term.press('enter');
    expect(await answered(term, out)).toEqual({ action: 'accept' });
    await term.waitForText('link done', 30000);

    await send(term, 'again');
    await term.waitForText('MCP link: server links asks main to visit a page', 30000);
    term.type('\u0018');
    expect(await answered(term, out)).toEqual({ action: 'decline' });
    await term.waitForText('answered decline', 30000, { where: 'all' });
  });
});
