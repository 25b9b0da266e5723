#!/usr/bin/env node
// The client the MCP conformance suite drives (`conformance client --command ...`): it
// runs arbor's own MCP client code (the built McpManager, its OAuth providers, sign-in
// and elicitation handling) against the scenario server whose URL is the last argument.
// MCP_CONFORMANCE_SCENARIO names the scenario; MCP_CONFORMANCE_CONTEXT carries what a
// user would have put in the config (a pre-registered client, a client secret, a key).
// The "browser" fetches the authorization URL and follows the redirects to arbor's
// callback listener, as a browser whose user approves would.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const build = (p) => pathToFileURL(resolve(import.meta.dirname, '../../build', p)).href;
const { loadConfigFromTexts } = await import(build('config/load.js'));
const { createMcpManager, mcpToolsOf } = await import(build('tools/mcpTools.js'));
const { acceptDefaults } = await import(build('mcp/elicitation.js'));

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const home = mkdtempSync(join(tmpdir(), 'arbor-conformance-'));
const env = { ARBOR_HOME: home, HOME: home, PATH: process.env.PATH ?? '' };

const lines = [`[mcp_servers.s]`, `url = ${JSON.stringify(url)}`, `startup_timeout_secs = 20`];
const oauth = [];
if (context.private_key_pem) {
  const keyFile = join(home, 'client-key.pem');
  writeFileSync(keyFile, context.private_key_pem, { mode: 0o600 });
  lines.push('auth = "client_credentials"');
  oauth.push(`client_id = ${JSON.stringify(context.client_id)}`, `private_key_file = ${JSON.stringify(keyFile)}`);
} else if (context.idp_token_endpoint) {
  // SEP-990: the user's enterprise ID token (as an IdP login would leave it in the
  // environment), exchanged at the IdP for an ID-JAG that arbor's client presents.
  env.CONFORMANCE_CLIENT_SECRET = context.client_secret;
  env.CONFORMANCE_ID_TOKEN = context.idp_id_token;
  lines.push('auth = "cross_app_access"');
  oauth.push(`client_id = ${JSON.stringify(context.client_id)}`, 'client_secret_env = "CONFORMANCE_CLIENT_SECRET"');
  const idp = [
    `token_endpoint = ${JSON.stringify(context.idp_token_endpoint)}`,
    `client_id = ${JSON.stringify(context.idp_client_id)}`,
    'id_token_env = "CONFORMANCE_ID_TOKEN"',
  ];
  lines.push(`idp = { ${idp.join(', ')} }`);
} else if (context.client_id && context.client_secret) {
  env.CONFORMANCE_CLIENT_SECRET = context.client_secret;
  if (scenario.startsWith('auth/client-credentials')) lines.push('auth = "client_credentials"');
  oauth.push(`client_id = ${JSON.stringify(context.client_id)}`, 'client_secret_env = "CONFORMANCE_CLIENT_SECRET"');
} else if (scenario.startsWith('auth/')) {
  // The document a user publishes for a URL-based client id (SEP-991); servers that do
  // not support those documents get dynamic registration instead.
  oauth.push('client_metadata_url = "https://conformance-test.local/client-metadata.json"');
}
if (oauth.length > 0) lines.push(`oauth = { ${oauth.join(', ')} }`);

const config = `[providers.o]\ntype = "offline"\n[agents.main]\nprovider = "o"\n${lines.join('\n')}\n`;
const loaded = loadConfigFromTexts([{ file: join(home, 'config.toml'), text: config }], env);
const manager = createMcpManager(loaded.config, home, env);
// No operator: every form is answered with its defaults (as `arbor -p --yes` does).
manager.setElicitationHandler(async (req) => acceptDefaults(req.fields));

const browser = {
  authorizationUrl: (authUrl) => {
    void fetch(authUrl, { redirect: 'follow' }).then(
      (r) => r.text(),
      () => {},
    );
  },
};
const view = () => manager.views()[0];
const log = (text) => process.stderr.write(`${text}\n`);

let code = 0;
try {
  manager.startAll();
  await manager.waitFor(['s']);
  if (view().status === 'needs-sign-in') {
    log('sign-in needed: running the login flow');
    await manager.login('s', browser, { browser: false });
  }
  if (view().status !== 'ready') throw new Error(`server not ready: ${view().status}: ${view().error ?? ''}`);
  const signal = new AbortController().signal;
  const ctx = { signal, tracker: { recordAction: () => undefined, recordCostUsd: () => {}, costExceeded: () => undefined } };
  const argsFor = (schema) =>
    Object.fromEntries(
      Object.entries(schema?.properties ?? {}).map(([k, p]) => [
        k,
        p.type === 'number' || p.type === 'integer' ? 1 : p.type === 'boolean' ? true : 'x',
      ]),
    );
  for (const tool of mcpToolsOf(manager, ['s'])) {
    const schema = tool.spec(undefined, undefined).parameters;
    let result = await tool.run(argsFor(schema), ctx);
    // A step-up: the operator signs in again with the wider scope, then the call is retried.
    if (!result.success && /needs sign-in/.test(result.error ?? '')) {
      log(`step-up for ${tool.name}: signing in again`);
      await manager.login('s', browser, { browser: false });
      result = await tool.run(argsFor(schema), ctx);
    }
    log(`${tool.name}: ${result.success ? 'ok' : `error: ${result.error}`}`);
  }
} catch (err) {
  log(`arbor conformance client: ${err instanceof Error ? err.message : String(err)}`);
  code = 1;
} finally {
  await manager.close();
  rmSync(home, { recursive: true, force: true });
}
process.exit(code);
