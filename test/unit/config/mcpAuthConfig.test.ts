// The sign-in keys of a url MCP server: oauth = { client_id, client_secret_env, scopes,
// client_metadata_url, private_key_file, key_id }, auth = "oauth" | "client_credentials",
// oauth_callback_port. Every accepted form, and every refused one with its exact message
// and key path.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { findUnknownKeys } from '../../../src/config/schema.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { BASE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

const server = (lines: string, url = 'https://mcp.example.com/mcp') => `${BASE}\n[mcp_servers.docs]\nurl = "${url}"\n${lines}\n`;

describe('MCP sign-in config', () => {
  it.each([
    ['nothing: sign-in when the server asks', ''],
    ['a pre-registered client', 'oauth = { client_id = "arbor-cli", client_secret_env = "DOCS_SECRET", scopes = ["read", "write"] }'],
    ['a public client without a secret', 'oauth = { client_id = "arbor-cli" }'],
    ['a client ID metadata document', 'oauth = { client_metadata_url = "https://arbor.example/client.json" }'],
    ['a fixed callback port', 'oauth_callback_port = 8765'],
    [
      'client credentials with a secret',
      'auth = "client_credentials"\noauth = { client_id = "svc", client_secret_env = "SVC_SECRET", scopes = ["mcp"] }',
    ],
    [
      'client credentials with a key',
      'auth = "client_credentials"\noauth = { client_id = "svc", private_key_file = "key.pem", key_id = "k1" }',
    ],
  ])('%s', (_label, lines) => {
    const { config, warnings } = load(server(lines));
    expect(warnings).toEqual([]);
    expect(config.mcp_servers!.docs.url).toBe('https://mcp.example.com/mcp');
  });

  it('keeps what was written', () => {
    const docs = load(server('auth = "client_credentials"\noauth = { client_id = "svc", private_key_file = "key.pem", key_id = "k1" }'))
      .config.mcp_servers!.docs;
    expect(docs).toMatchObject({ auth: 'client_credentials', oauth: { client_id: 'svc', private_key_file: 'key.pem', key_id: 'k1' } });
    expect(load(server('')).config.mcp_servers!.docs).not.toHaveProperty('oauth');
  });

  it.each([
    [
      'oauth on a stdio server',
      `${BASE}\n[mcp_servers.docs]\ncommand = "x"\noauth = { client_id = "a" }\n`,
      'mcp_servers.docs.oauth',
      'oauth applies to url servers, not to servers started with command',
    ],
    [
      'oauth_callback_port on a stdio server',
      `${BASE}\n[mcp_servers.docs]\ncommand = "x"\noauth_callback_port = 9000\n`,
      'mcp_servers.docs.oauth_callback_port',
      'oauth_callback_port applies to url servers, not to servers started with command',
    ],
    ['an unknown auth', server('auth = "magic"'), 'mcp_servers.docs.auth', 'must be one of "oauth", "client_credentials", got "magic"'],
    ['a port out of range', server('oauth_callback_port = 70000'), 'mcp_servers.docs.oauth_callback_port', null],
    ['a port that is not an integer', server('oauth_callback_port = 80.5'), 'mcp_servers.docs.oauth_callback_port', null],
    ['oauth not a table', server('oauth = "x"'), 'mcp_servers.docs.oauth', null],
    ['scopes not a list', server('oauth = { scopes = "read" }'), 'mcp_servers.docs.oauth.scopes', null],
    [
      'a bad secret variable name',
      server('oauth = { client_id = "a", client_secret_env = "not a name" }'),
      'mcp_servers.docs.oauth.client_secret_env',
      null,
    ],
    [
      'an http metadata URL',
      server('oauth = { client_metadata_url = "http://arbor.example/client.json" }'),
      'mcp_servers.docs.oauth.client_metadata_url',
      'must be an https URL with a path (the client ID metadata document)',
    ],
    [
      'a metadata URL without a path',
      server('oauth = { client_metadata_url = "https://arbor.example/" }'),
      'mcp_servers.docs.oauth.client_metadata_url',
      'must be an https URL with a path (the client ID metadata document)',
    ],
    [
      'bearer and oauth',
      server('bearer_token_env = "T"\noauth = { client_id = "a" }'),
      'mcp_servers.docs.oauth',
      'set either bearer_token_env (a fixed token) or oauth/auth (sign-in), not both',
    ],
    [
      'client credentials without a client id',
      server('auth = "client_credentials"'),
      'mcp_servers.docs.oauth.client_id',
      'auth = "client_credentials" needs oauth.client_id',
    ],
    [
      'client credentials without a credential',
      server('auth = "client_credentials"\noauth = { client_id = "svc" }'),
      'mcp_servers.docs.oauth',
      'auth = "client_credentials" needs oauth.client_secret_env or oauth.private_key_file',
    ],
    [
      'client credentials with both credentials',
      server('auth = "client_credentials"\noauth = { client_id = "svc", client_secret_env = "S", private_key_file = "k.pem" }'),
      'mcp_servers.docs.oauth.private_key_file',
      'set either client_secret_env or private_key_file, not both',
    ],
    [
      'client credentials with a callback port',
      server('auth = "client_credentials"\noauth_callback_port = 9000\noauth = { client_id = "svc", client_secret_env = "S" }'),
      'mcp_servers.docs.oauth_callback_port',
      'oauth_callback_port applies to sign-in in a browser, not to auth = "client_credentials"',
    ],
    [
      'a key without client credentials',
      server('oauth = { client_id = "svc", private_key_file = "k.pem" }'),
      'mcp_servers.docs.oauth.private_key_file',
      'private_key_file applies only to auth = "client_credentials"',
    ],
    [
      'a key id without a key',
      server('auth = "client_credentials"\noauth = { client_id = "svc", client_secret_env = "S", key_id = "k1" }'),
      'mcp_servers.docs.oauth.key_id',
      'key_id applies only with private_key_file',
    ],
    [
      'a secret without a client id',
      server('oauth = { client_secret_env = "S" }'),
      'mcp_servers.docs.oauth.client_secret_env',
      'client_secret_env needs client_id (a secret belongs to a pre-registered client)',
    ],
  ])('refuses %s', (_label, text, keyPath, message) => {
    const err = loadError(text);
    expect(err.keyPath).toBe(keyPath);
    if (message) expect(err.message).toContain(message);
  });

  it('an unknown key inside oauth is a warning naming it', () => {
    const { warnings } = loadConfigFromTexts([{ file: '/c.toml', text: server('oauth = { client_id = "a", clientid = "b" }') }], {});
    expect(warnings.join('\n')).toContain('mcp_servers.docs.oauth.clientid');
    expect(findUnknownKeys).toBeTypeOf('function');
  });
});
