// OAuth against a loopback server built from the SDK's own auth pieces: a server needing
// sign-in shows needs-sign-in (never a browser on its own), login runs the authorization
// code flow end to end (the browser step is a fetch following the redirects to arbor's
// callback listener), the grant is stored 0600 under mcp-auth/ and reused by the next
// start, refreshed before expiry, widened by a step-up, and forgotten by logout.
import { describe, expect, it, onTestFinished } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { McpManager } from '../../../../src/mcp/manager.js';
import { mcpToolsOf } from '../../../../src/tools/mcpTools.js';
import type { ToolContext } from '../../../../src/tools/types.js';
import { knownSecrets } from '../../../../src/persistence/redact.js';
import { tempTree } from '../../../helpers/tempTree.js';
import { managerFor, offlineWith } from '../helpers.js';
import { browse, startOAuthMcpServer, type OAuthMcpServer } from './oauthMcpServer.js';

async function setup(extra = ''): Promise<{ srv: OAuthMcpServer; home: string; make(): McpManager }> {
  const srv = await startOAuthMcpServer();
  onTestFinished(() => srv.close());
  const home = tempTree('oauth', {});
  const make = () => managerFor(offlineWith(`[mcp_servers.docs]\nurl = "${srv.mcpUrl}"\n${extra}`), home, { ARBOR_HOME: home, HOME: home });
  return { srv, home, make };
}

const ctx = (): ToolContext =>
  ({
    signal: new AbortController().signal,
    tracker: { recordAction: () => undefined, recordCostUsd: () => {}, costExceeded: () => undefined },
  }) as unknown as ToolContext;

async function login(m: McpManager, seen: string[] = []): Promise<string> {
  return m.login(
    'docs',
    {
      authorizationUrl: (url) => {
        seen.push(url);
        void browse(url);
      },
    },
    { browser: false },
  );
}

describe('OAuth sign-in', () => {
  it('needs sign-in, then the code flow, 0600 storage, reuse on the next start, logout', async () => {
    const { srv, home, make } = await setup();
    const m = make();
    m.startAll();
    expect(await m.waitFor(['docs'])).toEqual(['docs']);
    expect(m.views()[0]).toMatchObject({ status: 'needs-sign-in', error: '401 Unauthorized — needs sign-in' });
    // A passive start registers no client and opens nothing.
    expect(srv.provider.clientsStore.all.size).toBe(0);
    expect(srv.provider.log).toEqual([]);

    const urls: string[] = [];
    expect(await login(m, urls)).toBe('signed-in');
    expect(urls).toHaveLength(1);
    const auth = new URL(urls[0]);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('resource')).toBe(srv.mcpUrl);
    expect(auth.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(m.views()[0].status).toBe('ready');
    expect(
      await mcpToolsOf(m, ['docs'])
        .find((t) => t.name === 'mcp__docs__whoami')!
        .run({}, ctx()),
    ).toMatchObject({ success: true });

    const dir = join(home, 'mcp-auth');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^docs-[0-9a-f]{12}\.json$/);
    expect(statSync(join(dir, files[0])).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(join(dir, files[0]), 'utf8')) as { tokens: { access_token: string; refresh_token: string } };
    // Scrubbed like keys from then on.
    expect(knownSecrets({})).toContain(stored.tokens.access_token);
    expect(knownSecrets({})).toContain(stored.tokens.refresh_token);
    // Never in a view.
    expect(JSON.stringify(m.views())).not.toContain(stored.tokens.access_token);

    // The next start (a new arbor) uses the stored grant: no authorization.
    await m.close();
    const before = srv.provider.log.length;
    const m2 = make();
    m2.startAll();
    expect(await m2.waitFor(['docs'])).toEqual([]);
    expect(srv.provider.log.length).toBe(before);

    // Logout ends the session (DELETE) and forgets the grant.
    const deletes = srv.requests.filter((r) => r.startsWith('DELETE')).length;
    await m2.logout('docs');
    expect(srv.requests.filter((r) => r.startsWith('DELETE')).length).toBe(deletes + 1);
    expect(readdirSync(dir)).toEqual([]);
    expect(m2.views()[0].status).toBe('needs-sign-in');
  }, 30_000);

  it('refreshes an expiring token before connecting', async () => {
    const { srv, make } = await setup();
    srv.provider.tokenLifetime = 30; // inside the refresh margin at once
    const m = make();
    await login(m);
    expect(m.views()[0].status).toBe('ready');
    // The start after login already refreshed it (expiry within the margin).
    expect(srv.provider.log.filter((l) => l === 'token refresh_token').length).toBeGreaterThanOrEqual(1);
    await m.restart('docs');
    expect(m.views()[0].status).toBe('ready');
    expect(srv.provider.log.filter((l) => l === 'token refresh_token').length).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('a step-up (403 insufficient_scope) asks for sign-in, and the next login asks for the wider scope', async () => {
    const { srv, make } = await setup();
    const m = make();
    await login(m);
    const admin = () =>
      mcpToolsOf(m, ['docs'])
        .find((t) => t.name === 'mcp__docs__admin')!
        .run({}, ctx());
    expect(await admin()).toMatchObject({ success: false, error: "MCP server 'docs' needs sign-in for this: run /mcp login docs" });
    const urls: string[] = [];
    await login(m, urls);
    expect(new URL(urls[0]).searchParams.get('scope')!.split(' ')).toContain('admin');
    expect(await admin()).toMatchObject({ success: true, output: 'admin done' });
    expect(srv.provider.log.some((l) => l.startsWith('authorize scopes=') && l.includes('admin'))).toBe(true);
  }, 30_000);

  it('a fixed callback port is used; a cancelled sign-in stores nothing', async () => {
    // A port the system just had free, not one made from the pid: a fixed number in the
    // ephemeral range can be held by any client socket on the machine, and in a worker
    // shared by many files the pid no longer changes from file to file.
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const free = (s.address() as AddressInfo).port;
        s.close(() => resolve(free));
      });
    });
    const { home, make } = await setup(`oauth_callback_port = ${port}\n`);
    const m = make();
    const ac = new AbortController();
    const urls: string[] = [];
    const pending = m.login('docs', { authorizationUrl: (u) => (urls.push(u), ac.abort()) }, { browser: false, signal: ac.signal });
    await expect(pending).rejects.toThrow('sign-in cancelled');
    expect(new URL(urls[0]).searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/callback`);
    const dir = join(home, 'mcp-auth');
    const stored = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { tokens?: unknown });
    expect(stored.every((s) => s.tokens === undefined)).toBe(true);
    expect(m.views()[0].status).toBe('needs-sign-in');
  }, 30_000);
});
