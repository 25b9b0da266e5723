// auth = "cross_app_access" end to end on loopback: an IdP token endpoint (RFC 8693), an
// authorization server that takes the JWT-bearer grant (RFC 7523) from a client
// authenticated with HTTP Basic, and an SDK McpServer behind a bearer check. The ID token
// is exchanged for an ID-JAG naming the authorization server and the resource, the ID-JAG
// for an access token; the token is stored 0600 and reused on the next start (no new
// exchange), and logout forgets it (the restart exchanges anew). A missing ID token variable and an IdP refusal each
// say what went wrong.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { loadConfigFromTexts } from '../../../../src/config/load.js';
import type { McpManager } from '../../../../src/mcp/manager.js';
import { createMcpManager, mcpToolsOf } from '../../../../src/tools/mcpTools.js';
import type { ToolContext } from '../../../../src/tools/types.js';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Seen {
  idp: Array<Record<string, string>>;
  as: Array<{ body: Record<string, string>; basic: string }>;
}

async function startServers(): Promise<{ base: string; seen: Seen }> {
  const app = express();
  const seen: Seen = { idp: [], as: [] };
  const http: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  cleanups.push(() => new Promise((r) => (http.closeAllConnections(), http.close(r))));
  const base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  const issued = new Set<string>();
  app.use(express.urlencoded({ extended: false }));
  app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
    res.json({ resource: `${base}/mcp`, authorization_servers: [`${base}/as`] });
  });
  app.get('/.well-known/oauth-authorization-server/as', (_req, res) => {
    res.json({
      issuer: `${base}/as`,
      authorization_endpoint: `${base}/as/authorize`,
      token_endpoint: `${base}/as/token`,
      response_types_supported: ['code'],
      grant_types_supported: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
    });
  });
  app.post('/idp/token', (req, res) => {
    const body = req.body as Record<string, string>;
    seen.idp.push(body);
    if (body.subject_token !== 'id-token-of-ada') {
      res.status(400).json({ error: 'invalid_grant', error_description: 'the ID token is not valid' });
      return;
    }
    res.json({ access_token: `jag-${seen.idp.length}`, issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' });
  });
  app.post('/as/token', (req, res) => {
    const body = req.body as Record<string, string>;
    const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    seen.as.push({ body, basic });
    const token = `at-${seen.as.length}`;
    issued.add(token);
    res.json({ access_token: token, token_type: 'Bearer', expires_in: 3600 });
  });
  app.all('/mcp', express.json(), async (req, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!issued.has(token)) {
      res
        .status(401)
        .set('WWW-Authenticate', `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`)
        .json({ error: 'invalid_token' });
      return;
    }
    const server = new McpServer({ name: 'crm', version: '1' });
    server.registerTool('whoami', { description: 'says who' }, async () => ({
      content: [{ type: 'text' as const, text: `token ${token}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return { base, seen };
}

function manager(base: string, home: string, env: Record<string, string>): McpManager {
  const text = `[providers.o]\ntype = "offline"\n[agents.main]\nprovider = "o"\n[mcp_servers.crm]\nurl = "${base}/mcp"
auth = "cross_app_access"
oauth = { client_id = "arbor-crm", client_secret_env = "CRM_SECRET", scopes = ["crm.read"] }
idp = { token_endpoint = "${base}/idp/token", client_id = "arbor-at-idp", id_token_env = "IDP_ID_TOKEN" }\n`;
  const loaded = loadConfigFromTexts([{ file: join(home, 'config.toml'), text }], env);
  const m = createMcpManager(loaded.config, home, { ARBOR_HOME: home, HOME: home, ...env });
  cleanups.push(() => m.close());
  return m;
}

const ctx = {
  signal: new AbortController().signal,
  tracker: { recordAction: () => undefined, recordCostUsd: () => {}, costExceeded: () => undefined },
} as unknown as ToolContext;

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'arbor-xaa-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

const ENV = { IDP_ID_TOKEN: 'id-token-of-ada', CRM_SECRET: 'crm-secret-value' };

describe('cross-app access', () => {
  it('exchanges the ID token for an ID-JAG, the ID-JAG for a token; stores it 0600, reuses it, logout forgets it', async () => {
    const { base, seen } = await startServers();
    const home = tempHome();
    const m = manager(base, home, ENV);
    m.startAll();
    expect(await m.waitFor(['crm'])).toEqual([]);
    expect(seen.idp).toEqual([
      {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        subject_token: 'id-token-of-ada',
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        audience: `${base}/as`,
        resource: `${base}/mcp`,
        client_id: 'arbor-at-idp',
        scope: 'crm.read',
      },
    ]);
    expect(seen.as).toHaveLength(1);
    expect(seen.as[0].basic).toBe('arbor-crm:crm-secret-value');
    expect(seen.as[0].body).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: 'jag-1',
      scope: 'crm.read',
      resource: `${base}/mcp`,
    });
    const whoami = () => mcpToolsOf(m, ['crm']).find((t) => t.name === 'mcp__crm__whoami')!;
    expect((await whoami().run({}, ctx)).output).toBe('token at-1');

    const dir = join(home, 'mcp-auth');
    const [file] = readdirSync(dir);
    expect(file).toMatch(/^crm-[0-9a-f]{12}\.json$/);
    expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, file), 'utf8')).tokens.access_token).toBe('at-1');
    await m.close();

    // The next start reuses the stored token: no exchange at all.
    const again = manager(base, home, ENV);
    again.startAll();
    expect(await again.waitFor(['crm'])).toEqual([]);
    expect(seen.idp).toHaveLength(1);
    expect(seen.as).toHaveLength(1);

    // Logout forgets the token; the restart that follows exchanges the ID token anew.
    await again.logout('crm');
    expect(seen.idp).toHaveLength(2);
    expect(JSON.parse(readFileSync(join(dir, file), 'utf8')).tokens.access_token).toBe('at-2');
    await expect(again.login('crm', { authorizationUrl: () => {} }, { browser: false })).rejects.toThrow(
      "MCP server 'crm' signs in through its identity provider (cross_app_access), not in a browser",
    );
  }, 60_000);

  it('a missing ID token variable and an IdP refusal each say why', async () => {
    const { base } = await startServers();
    const missing = manager(base, tempHome(), { CRM_SECRET: 'crm-secret-value' });
    missing.startAll();
    expect(await missing.waitFor(['crm'])).toEqual(['crm']);
    expect(missing.views()[0].error).toContain('idp.id_token_env IDP_ID_TOKEN is not set');

    const refused = manager(base, tempHome(), { ...ENV, IDP_ID_TOKEN: 'stale-token' });
    refused.startAll();
    expect(await refused.waitFor(['crm'])).toEqual(['crm']);
    expect(refused.views()[0].error).toContain(
      `idp token exchange at ${base}/idp/token failed: 400 invalid_grant: the ID token is not valid`,
    );
  }, 60_000);
});
