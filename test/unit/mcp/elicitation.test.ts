// A server's elicitation/create reaches the handler the runtime installs (headless policy:
// decline, or with --yes the defaults when every required field has one); the schema
// arrives as fields (string, number, integer, boolean, enum, titled enum, defaults,
// required). Sampling and roots are not offered: those requests get an error answer at
// once, never silence.
import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import type { McpManager } from '../../../src/mcp/manager.js';
import { formFields, parseFieldInput, type ElicitationRequest } from '../../../src/mcp/elicitation.js';
import { elicitationPolicy } from '../../../src/runtime/mcpElicitation.js';
import { createMcpManager, mcpToolsOf } from '../../../src/tools/mcpTools.js';
import type { ToolContext } from '../../../src/tools/types.js';

const SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, title: 'Name', default: 'Ada' },
    age: { type: 'integer' as const, default: 36 },
    score: { type: 'number' as const },
    ok: { type: 'boolean' as const, default: true },
    color: { type: 'string' as const, enum: ['red', 'green'], default: 'green' },
    size: {
      type: 'string' as const,
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
  },
  required: ['name', 'age'],
};

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(schema: typeof SCHEMA): Promise<string> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  cleanups.push(async () => {
    for (const t of sessions.values()) await t.close();
  });
  const http: Server = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return void (await known.handleRequest(req, res));
    const server = new McpServer({ name: 'asks', version: '1' });
    server.registerTool('form', { description: 'asks for a form' }, async () => {
      const r = await server.server.elicitInput({ message: 'Who are you?\u001b[2J', requestedSchema: schema });
      return { content: [{ type: 'text' as const, text: JSON.stringify(r) }] };
    });
    server.registerTool('sample', { description: 'asks the client for a completion' }, async () => {
      try {
        await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
        return { content: [{ type: 'text' as const, text: 'sampled' }] };
      } catch (err) {
        return { content: [{ type: 'text' as const, text: `refused: ${(err as Error).message}` }] };
      }
    });
    server.registerTool('roots', { description: 'asks for roots' }, async () => {
      try {
        await server.server.listRoots();
        return { content: [{ type: 'text' as const, text: 'rooted' }] };
      } catch (err) {
        return { content: [{ type: 'text' as const, text: `refused: ${(err as Error).message}` }] };
      }
    });
    // Stateful: the answer to a server's request comes back as a new POST of the session.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  cleanups.push(() => new Promise((r) => (http.closeAllConnections(), http.close(r))));
  return `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
}

function manager(url: string): McpManager {
  const loaded = loadConfigFromTexts(
    [{ file: '/c.toml', text: `[providers.o]\ntype = "offline"\n[agents.main]\nprovider = "o"\n[mcp_servers.asks]\nurl = "${url}"\n` }],
    {},
  );
  const m = createMcpManager(loaded.config, '/', { ARBOR_HOME: '/nonexistent-arbor-home' });
  cleanups.push(() => m.close());
  return m;
}

const ctx = (): ToolContext =>
  ({
    signal: new AbortController().signal,
    tracker: { recordAction: () => undefined, recordCostUsd: () => {}, costExceeded: () => undefined },
  }) as unknown as ToolContext;

async function call(m: McpManager, tool: string): Promise<string> {
  expect(await m.waitFor(['asks'])).toEqual([]);
  const r = await mcpToolsOf(m, ['asks'])
    .find((t) => t.name === `mcp__asks__${tool}`)!
    .run({}, ctx());
  return r.output;
}

describe('elicitation', () => {
  it('the schema becomes fields; typed answers are checked', () => {
    const fields = formFields(SCHEMA);
    expect(fields.map((f) => [f.key, f.kind, f.required, f.default])).toEqual([
      ['name', 'string', true, 'Ada'],
      ['age', 'integer', true, 36],
      ['score', 'number', false, undefined],
      ['ok', 'boolean', false, true],
      ['color', 'enum', false, 'green'],
      ['size', 'enum', false, undefined],
    ]);
    expect(fields[5]).toMatchObject({
      options: [
        { value: 's', label: 'Small' },
        { value: 'l', label: 'Large' },
      ],
    });
    expect(parseFieldInput(fields[1], '4.5')).toEqual({ error: 'integer' });
    expect(parseFieldInput(fields[1], '')).toEqual({ value: 36 });
    expect(parseFieldInput(fields[2], 'x')).toEqual({ error: 'number' });
    expect(parseFieldInput(fields[3], 'no')).toEqual({ value: false });
    expect(parseFieldInput(fields[5], '2')).toEqual({ value: 'l' });
    expect(parseFieldInput(fields[5], 'Small')).toEqual({ value: 's' });
  });

  it('headless declines; --yes accepts the defaults; required fields without one are declined', async () => {
    const url = await serve(SCHEMA);
    const notices: string[] = [];
    const seen: ElicitationRequest[] = [];
    const m = manager(url);
    const policy = elicitationPolicy({ autoYes: false, notice: (_l, text) => notices.push(text) });
    m.setElicitationHandler((req, signal) => (seen.push(req), policy(req, signal)));
    m.startAll();
    expect(JSON.parse(await call(m, 'form'))).toEqual({ action: 'decline' });
    expect(seen[0]).toMatchObject({ server: 'asks', message: 'Who are you?\u001b[2J' });
    expect(notices[0]).toContain('arbor runs headless (-p) with no operator: declined');

    m.setElicitationHandler(elicitationPolicy({ autoYes: true, notice: (_l, text) => notices.push(text) }));
    expect(JSON.parse(await call(m, 'form'))).toEqual({ action: 'accept', content: { name: 'Ada', age: 36, ok: true, color: 'green' } });

    const url2 = await serve({ ...SCHEMA, required: ['name', 'score'] });
    const m2 = manager(url2);
    m2.setElicitationHandler(elicitationPolicy({ autoYes: true, notice: (_l, text) => notices.push(text) }));
    m2.startAll();
    expect(JSON.parse(await call(m2, 'form'))).toEqual({ action: 'decline' });
  });

  it('sampling and roots get an error answer at once', async () => {
    const m = manager(await serve(SCHEMA));
    m.startAll();
    expect(await call(m, 'sample')).toMatch(/^refused: .*(does not support sampling|Method not found)/);
    expect(await call(m, 'roots')).toMatch(/^refused: .*(does not support|Method not found)/);
  });
});
