// A loopback MCP server that signs users in, built from the SDK's own server pieces: the
// authorization server is mcpAuthRouter (metadata, dynamic registration, authorize with
// PKCE, token, refresh) over an in-memory provider that approves at once (the "browser"
// is a fetch following redirects), and /mcp is a stateful Streamable HTTP endpoint behind
// requireBearerAuth. The tool `admin` needs the scope `admin` and answers a token without
// it with 403 insufficient_scope (a step-up). Everything it sees is recorded.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import express, { type Response } from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { OAuthServerProvider, AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

interface Grant {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  resource?: string;
}

class Clients implements OAuthRegisteredClientsStore {
  readonly all = new Map<string, OAuthClientInformationFull>();
  getClient(id: string) {
    return this.all.get(id);
  }
  registerClient(client: OAuthClientInformationFull) {
    this.all.set(client.client_id, client);
    return client;
  }
}

class InstantApproval implements OAuthServerProvider {
  readonly clientsStore = new Clients();
  readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  readonly access = new Map<string, Grant>();
  readonly refresh = new Map<string, Grant>();
  /** Lifetime of the access tokens issued, seconds. */
  tokenLifetime = 3600;
  readonly log: string[] = [];

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    this.log.push(`authorize scopes=${(params.scopes ?? []).join(' ')} resource=${params.resource?.href ?? ''}`);
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (!entry) throw new Error('unknown code');
    return entry.params.codeChallenge;
  }

  private issue(clientId: string, scopes: string[], resource?: string): OAuthTokens {
    const access = `at-${randomUUID()}`;
    const refresh = `rt-${randomUUID()}`;
    const grant = { clientId, scopes, expiresAt: Date.now() + this.tokenLifetime * 1000, resource };
    this.access.set(access, grant);
    this.refresh.set(refresh, grant);
    return { access_token: access, token_type: 'bearer', expires_in: this.tokenLifetime, refresh_token: refresh, scope: scopes.join(' ') };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (!entry || entry.clientId !== client.client_id) throw new Error('bad code');
    this.codes.delete(code);
    this.log.push('token authorization_code');
    return this.issue(client.client_id, entry.params.scopes ?? [], entry.params.resource?.href);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, token: string): Promise<OAuthTokens> {
    const grant = this.refresh.get(token);
    if (!grant || grant.clientId !== client.client_id) throw new Error('bad refresh token');
    this.refresh.delete(token);
    this.log.push('token refresh_token');
    return this.issue(client.client_id, grant.scopes, grant.resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.access.get(token);
    if (!grant || grant.expiresAt < Date.now())
      throw new (await import('@modelcontextprotocol/sdk/server/auth/errors.js')).InvalidTokenError('expired or unknown');
    return { token, clientId: grant.clientId, scopes: grant.scopes, expiresAt: Math.floor(grant.expiresAt / 1000) };
  }
}

export interface OAuthMcpServer {
  url: string;
  mcpUrl: string;
  provider: InstantApproval;
  /** Every request to /mcp: "<METHOD> <jsonrpc method or ->". */
  requests: string[];
  close(): Promise<void>;
}

function tools(): McpServer {
  const server = new McpServer({ name: 'oauth-test', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Says who is signed in.' }, async (extra) => ({
    content: [
      { type: 'text' as const, text: `client ${extra.authInfo?.clientId ?? '?'} scopes ${(extra.authInfo?.scopes ?? []).join(',')}` },
    ],
  }));
  server.registerTool('admin', { description: 'Needs the admin scope.', inputSchema: { what: z.string().optional() } }, async () => ({
    content: [{ type: 'text', text: 'admin done' }],
  }));
  return server;
}

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const app = express();
  const provider = new InstantApproval();
  const requests: string[] = [];
  const http: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const addr = http.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const mcpUrl = new URL(`${base}/mcp`);
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(base),
      resourceServerUrl: mcpUrl,
      scopesSupported: ['mcp', 'admin'],
      // Loopback tests send many requests quickly.
      authorizationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
    }),
  );
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl });
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  app.all('/mcp', express.json(), (req, _res, next) => {
    requests.push(`${req.method} ${(req.body as { method?: string } | undefined)?.method ?? '-'}`);
    next();
  });
  // No token at all: the challenge names the base scope, so sign-in asks for `mcp` (the
  // WWW-Authenticate scope wins over scopes_supported) and `admin` needs a step-up.
  app.all('/mcp', (req, res, next) => {
    if (req.headers.authorization) return next();
    res
      .status(401)
      .set('WWW-Authenticate', `Bearer scope="mcp", resource_metadata="${resourceMetadataUrl}"`)
      .json({ error: 'invalid_token' });
  });
  app.all('/mcp', bearer, async (req, res) => {
    const body = req.body as { method?: string; params?: { name?: string } } | undefined;
    if (body?.method === 'tools/call' && body.params?.name === 'admin' && !req.auth?.scopes.includes('admin')) {
      res
        .status(403)
        .set('WWW-Authenticate', `Bearer error="insufficient_scope", scope="mcp admin", resource_metadata="${resourceMetadataUrl}"`)
        .json({ error: 'insufficient_scope' });
      return;
    }
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      if (req.method !== 'POST' || body?.method !== 'initialize') {
        res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (sid) => void sessions.set(sid, created),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await tools().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, req.body);
  });
  return {
    url: base,
    mcpUrl: mcpUrl.href,
    provider,
    requests,
    async close() {
      for (const t of sessions.values()) await t.close().catch(() => {});
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    },
  };
}

/** What a browser does with the authorization URL: GET it and follow the redirects, down
 * to arbor's callback listener. Resolves with the final status. */
export async function browse(url: string): Promise<number> {
  const res = await fetch(url, { redirect: 'follow' });
  await res.text();
  return res.status;
}
