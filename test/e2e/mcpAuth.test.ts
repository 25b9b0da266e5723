// Signing in to a remote MCP server in the built app, against a loopback server built from
// the SDK's auth pieces: the chat shows `needs sign-in` (status bar and /mcp), /mcp login
// runs the flow (the "browser" is $BROWSER, a script that fetches the URL and follows the
// redirects to arbor's callback), /mcp logout forgets the grant; headless fails fast with
// the command to run, `arbor mcp login` signs in from the shell and the next headless run
// uses the stored grant.
import { chmodSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { disposeAllTerminals } from '../support/terminal.js';
import { startOAuthMcpServer, type OAuthMcpServer } from '../unit/mcp/auth/oauthMcpServer.js';
import { PTY_TEST_TIMEOUT, send, type Sandbox, ptyTest } from './sandbox.js';

const servers: OAuthMcpServer[] = [];
afterEach(async () => {
  await disposeAllTerminals();
  for (const s of servers.splice(0)) await s.close();
});

async function world(sb: Sandbox, answer = 'the model answers'): Promise<{ srv: OAuthMcpServer; modelRequests: () => number }> {
  const srv = await startOAuthMcpServer();
  servers.push(srv);
  let requests = 0;
  await sb.withModel(() => {
    requests++;
    return { kind: 'text', chunks: [answer] };
  }, `\n[mcp_servers.docs]\nurl = "${srv.mcpUrl}"\n`);
  const browser = join(sb.h.root, 'browser.mjs');
  writeFileSync(browser, `#!${process.execPath}\nconst r = await fetch(process.argv[2], { redirect: 'follow' });\nawait r.text();\n`);
  chmodSync(browser, 0o755);
  sb.h.env.BROWSER = browser;
  return { srv, modelRequests: () => requests };
}

function grantFiles(sb: Sandbox): string[] {
  const dir = join(sb.h.env.ARBOR_HOME, 'mcp-auth');
  try {
    return readdirSync(dir).map((f) => join(dir, f));
  } catch {
    return [];
  }
}

describe('MCP sign-in', () => {
  ptyTest('the chat shows needs sign-in; /mcp login signs in through the browser; /mcp logout forgets it', 90000, async (sb) => {
    const { srv } = await world(sb);
    const term = await sb.startArbor([], { cols: 120, rows: 40 });
    await term.waitForText('MCP: 1 server needs sign-in (/mcp)', 30000);
    await send(term, '/mcp');
    await term.waitForText(/docs {2}needs sign-in {2}http/, 10000, { where: 'all' });
    await term.waitForText('needs sign-in: /mcp login docs', 10000, { where: 'all' });
    await send(term, '/mcp login docs');
    await term.waitForText('Signed in: MCP server docs is ready (2 tools).', 30000, { where: 'all' });
    expect(srv.provider.log.some((l) => l.startsWith('authorize'))).toBe(true);
    const files = grantFiles(sb);
    expect(files).toHaveLength(1);
    expect(statSync(files[0]).mode & 0o777).toBe(0o600);
    await send(term, '/mcp logout docs');
    await term.waitForText('Signed out of MCP server docs: its stored grant is gone.', 20000, { where: 'all' });
    await term.waitForText('MCP: 1 server needs sign-in (/mcp)', 20000);
    expect(grantFiles(sb)).toEqual([]);
    const deletes = srv.requests.filter((r) => r.startsWith('DELETE')).length;
    expect(deletes).toBeGreaterThanOrEqual(1);
  });

  ptyTest(
    'headless fails fast naming the command; arbor mcp login signs in; the next run uses the grant',
    PTY_TEST_TIMEOUT * 2,
    async (sb) => {
      const { modelRequests } = await world(sb, 'headless answer');
      const first = await sb.arbor(['-p', 'hello']);
      expect(first.code).toBe(3);
      expect(first.stderr).toContain('MCP server docs needs sign-in; headless arbor never opens a browser. Run: arbor mcp login docs');
      expect(modelRequests()).toBe(0);

      const login = await sb.arbor(['mcp', 'login', 'docs']);
      expect(login.stderr).toBe('');
      expect(login.stdout).toContain('A browser was opened to sign in; if it did not show up, open:');
      expect(login.stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
      expect(login.stdout).toContain('Signed in: MCP server docs is ready (2 tools).');
      expect(login.code).toBe(0);

      const second = await sb.arbor(['-p', 'hello']);
      expect(second.stdout).toBe('headless answer\n');
      expect(second.code).toBe(0);

      const bad = await sb.arbor(['mcp', 'login']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('usage: arbor mcp login <server> | arbor mcp logout <server>');
    },
  );
});
