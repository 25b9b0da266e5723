// A url server that cannot be reached says why in the words of the failure (status, the
// server's own message, a refused connection, TLS), with both transports' reasons when the
// SSE fallback was tried too; and a Streamable HTTP session is ended with DELETE on exit
// and on restart.
import { describe, expect, it, onTestFinished } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { tempTree } from '../../helpers/tempTree.js';
import { managerFor, offlineWith } from './helpers.js';

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  onTestFinished(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
  const addr = server.address();
  return `127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

async function errorOf(url: string, extra = ''): Promise<{ status: string; error?: string }> {
  const home = tempTree('mcp-err', {});
  const m = managerFor(offlineWith(`[mcp_servers.web]\nurl = "${url}"\n${extra}`), home, {
    ARBOR_HOME: home,
    HOME: home,
    T: 'some-fixed-token-123',
  });
  m.startAll();
  await m.waitFor(['web']);
  return m.views()[0];
}

describe('connect errors', () => {
  it('404 names the URL, for both transports tried', async () => {
    const host = await listen((_req, res) => void res.writeHead(404).end('nope'));
    const url = `http://${host}/mcp`;
    expect(await errorOf(url)).toMatchObject({ status: 'failed', error: `Streamable HTTP: 404 at ${url}; SSE: 404 at ${url}` });
  });

  it("500 carries the server's own message", async () => {
    const host = await listen((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'database is down' } }));
    });
    expect((await errorOf(`http://${host}/mcp`)).error).toBe('Streamable HTTP: 500: database is down; SSE: 500');
  });

  it('401 with a fixed token says sign-in is needed (no SSE attempt)', async () => {
    const seen: string[] = [];
    const host = await listen((req, res) => {
      seen.push(req.method ?? '');
      res.writeHead(401).end();
    });
    expect(await errorOf(`http://${host}/mcp`, 'bearer_token_env = "T"\n')).toMatchObject({
      status: 'failed',
      error: '401 Unauthorized — needs sign-in',
    });
    expect(seen).not.toContain('GET');
  });

  it('a refused connection and a TLS failure', async () => {
    const free = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
    expect((await errorOf(`http://127.0.0.1:${free}/mcp`)).error).toBe(`connection refused at 127.0.0.1:${free}`);
    // https to a plain-HTTP listener: the TLS handshake fails.
    const host = await listen((_req, res) => void res.writeHead(200).end());
    expect((await errorOf(`https://${host}/mcp`)).error).toMatch(/^TLS error: /);
  });
});

describe('ending a Streamable HTTP session', () => {
  it('sends DELETE with the session id on restart and on close', async () => {
    const deletes: string[] = [];
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const host = await listen(async (req, res) => {
      const id = req.headers['mcp-session-id'];
      if (req.method === 'DELETE') deletes.push(String(id));
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (sid) => void sessions.set(sid, created),
        });
        const server = new McpServer({ name: 's', version: '1' });
        server.registerTool('noop', { description: 'nothing' }, async () => ({ content: [] }));
        await server.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    });
    onTestFinished(async () => {
      for (const t of sessions.values()) await t.close();
    });
    const home = tempTree('mcp-del', {});
    const m = managerFor(offlineWith(`[mcp_servers.web]\nurl = "http://${host}/mcp"\n`), home, { ARBOR_HOME: home });
    m.startAll();
    expect(await m.waitFor(['web'])).toEqual([]);
    const first = [...sessions.keys()][0];
    await m.restart('web');
    expect(deletes).toEqual([first]);
    expect(m.views()[0].status).toBe('ready');
    const second = [...sessions.keys()].find((k) => k !== first);
    await m.close();
    expect(deletes).toEqual([first, second]);
  });
});
