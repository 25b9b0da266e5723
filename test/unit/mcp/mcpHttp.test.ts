// MCP over HTTP: an SDK server the test starts on 127.0.0.1:0, spoken to over Streamable
// HTTP (with a bearer token read from the variable the config names) and, for an old
// server that only speaks HTTP+SSE, through the SSE fallback.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { createMcpManager, mcpToolsOf } from '../../../src/tools/mcpTools.js';
import type { McpManager } from '../../../src/mcp/manager.js';
import type { ToolContext } from '../../../src/tools/types.js';

const TOKEN = 'http-bearer-secret-123456789';

function sdkServer(): McpServer {
  const server = new McpServer({ name: 'test-http', version: '1.0.0' });
  server.registerTool(
    'shout',
    { description: 'Upper-cases its text.\u001b[31m', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
  );
  server.registerTool('broken', { description: 'Always fails.' }, async () => ({
    content: [{ type: 'text', text: 'it broke' }],
    isError: true,
  }));
  // Answers only once the client gives up on the call (its timeout cancels the request).
  server.registerTool('slow', { description: 'Takes its time.' }, async (extra) => {
    await new Promise((r) => extra.signal.addEventListener('abort', r, { once: true }));
    return { content: [{ type: 'text', text: 'late' }] };
  });
  server.registerTool('link', { description: 'A resource link.' }, async () => ({
    content: [{ type: 'resource_link', uri: 'file:///tmp/report.md', name: 'report', mimeType: 'text/markdown' }],
  }));
  return server;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  return { server, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
}

const servers: Server[] = [];
const managers: McpManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.close();
  for (const s of servers.splice(0)) {
    // A call the client abandoned without a cancel would keep its connection open.
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

function managerFor(toml: string, env: NodeJS.ProcessEnv): McpManager {
  const loaded = loadConfigFromTexts(
    [{ file: '/c.toml', text: `[providers.o]\ntype = "offline"\n[agents.main]\nprovider = "o"\n${toml}` }],
    env,
  );
  const m = createMcpManager(loaded.config, '/', env);
  managers.push(m);
  return m;
}

const ctx = (): ToolContext =>
  ({
    signal: new AbortController().signal,
    tracker: { recordAction: () => undefined, recordCostUsd: () => {}, costExceeded: () => undefined },
  }) as unknown as ToolContext;

describe('Streamable HTTP', () => {
  it('connects with the bearer token from the named variable, lists and calls tools', async () => {
    const seenAuth: Array<string | undefined> = [];
    const { server, url } = await listen(async (req, res) => {
      seenAuth.push(req.headers.authorization);
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401).end();
        return;
      }
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => void transport.close());
      await sdkServer().connect(transport);
      await transport.handleRequest(req, res);
    });
    servers.push(server);
    const m = managerFor(
      `[mcp_servers.web]\nurl = "${url}/mcp"\nbearer_token_env = "WEB_TOKEN"\nheaders = { X-Extra = "1" }\n[mcp_servers.hasty]\nurl = "${url}/mcp"\nbearer_token_env = "WEB_TOKEN"\ntool_timeout_secs = 1\n`,
      {
        WEB_TOKEN: TOKEN,
      },
    );
    m.startAll();
    expect(await m.waitFor(['web'])).toEqual([]);
    const view = m.views().find((v) => v.name === 'web')!;
    expect(view).toMatchObject({ name: 'web', status: 'ready', transport: 'http' });
    // Server text is neutralised for display.
    expect(view.tools.find((t) => t.serverTool === 'shout')?.description).toBe('Upper-cases its text.␛[31m');
    expect(view.tools.find((t) => t.serverTool === 'shout')?.readOnly).toBe(true);
    expect(seenAuth.every((a) => a === `Bearer ${TOKEN}`)).toBe(true);
    // Never in what /mcp shows.
    expect(JSON.stringify(m.views())).not.toContain(TOKEN);

    const tools = mcpToolsOf(m, ['web']);
    const shout = tools.find((t) => t.name === 'mcp__web__shout')!;
    expect(shout.spec(undefined as never, undefined as never).parameters).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
    expect(await shout.run({ text: 'hi' }, ctx())).toEqual({
      success: true,
      output: 'HI',
      display: { kind: 'mcp', server: 'web', tool: 'shout', isError: false },
    });
    expect(await tools.find((t) => t.name === 'mcp__web__broken')!.run({}, ctx())).toEqual({
      success: false,
      output: '',
      error: 'it broke',
      display: { kind: 'mcp', server: 'web', tool: 'broken', isError: true },
    });
    // The same server under an entry with a 1 s tool timeout.
    expect(await m.waitFor(['hasty'])).toEqual([]);
    expect(
      await mcpToolsOf(m, ['hasty'])
        .find((t) => t.name === 'mcp__hasty__slow')!
        .run({}, ctx()),
    ).toEqual({
      success: false,
      output: '',
      error: "MCP tool 'slow' on server 'hasty' timed out after 1 s",
      display: { kind: 'mcp', server: 'hasty', tool: 'slow', isError: true },
    });
    expect((await tools.find((t) => t.name === 'mcp__web__link')!.run({}, ctx())).output).toBe(
      '[resource link: report <file:///tmp/report.md>, text/markdown]',
    );
  }, 30_000);

  it('a missing bearer variable fails the server naming the variable, never a value', async () => {
    const m = managerFor(`[mcp_servers.web]\nurl = "http://127.0.0.1:9/mcp"\nbearer_token_env = "WEB_TOKEN"\n`, {});
    m.startAll();
    expect(await m.waitFor(['web'])).toEqual(['web']);
    expect(m.views()[0]).toMatchObject({ status: 'failed', error: 'bearer_token_env WEB_TOKEN is not set' });
  });

  it('falls back to HTTP+SSE for a server that only speaks the old transport', async () => {
    const sessions = new Map<string, SSEServerTransport>();
    const { server, url } = await listen(async (req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        sessions.set(transport.sessionId, transport);
        res.on('close', () => sessions.delete(transport.sessionId));
        await sdkServer().connect(transport);
        return;
      }
      if (req.method === 'POST' && path === '/messages') {
        const id = new URL(req.url ?? '', 'http://x').searchParams.get('sessionId') ?? '';
        const transport = sessions.get(id);
        if (!transport) return void res.writeHead(404).end();
        await transport.handlePostMessage(req, res);
        return;
      }
      res.writeHead(405).end();
    });
    servers.push(server);
    const m = managerFor(`[mcp_servers.old]\nurl = "${url}/sse"\n`, {});
    m.startAll();
    expect(await m.waitFor(['old'])).toEqual([]);
    expect(m.views()[0]).toMatchObject({ status: 'ready', transport: 'sse' });
    const shout = mcpToolsOf(m, ['old']).find((t) => t.name === 'mcp__old__shout')!;
    expect(await shout.run({ text: 'sse' }, ctx())).toEqual({
      success: true,
      output: 'SSE',
      display: { kind: 'mcp', server: 'old', tool: 'shout', isError: false },
    });
  }, 30_000);
});
