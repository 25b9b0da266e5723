// The sign-in keys of a url MCP server: oauth = { client_id, client_secret_env, scopes,
// client_metadata_url, private_key_file, key_id }, auth = "oauth" | "client_credentials" |
// "cross_app_access", idp = { token_endpoint, client_id, client_secret_env, id_token_env },
// oauth_callback_port. Every accepted form, and every refused one with its exact message
// and key path.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { findUnknownKeys } from '../../../src/config/schema.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { BASE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

const XAA =
  'auth = "cross_app_access"\noauth = { client_id = "svc", client_secret_env = "SVC_SECRET" }\nidp = { token_endpoint = "https://idp.example.com/token", client_id = "arbor", id_token_env = "IDP_ID_TOKEN" }';

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
    ['cross-app access', XAA],
    [
      'cross-app access with an IdP secret and scopes',
      XAA.replace('id_token_env', 'client_secret_env = "IDP_SECRET", id_token_env').replace(
        '"SVC_SECRET" }',
        '"SVC_SECRET", scopes = ["mcp"] }',
      ),
    ],
  ])('%s', (_label, lines) => {
    const { config, warnings } = load(server(lines));
    expect(warnings).toEqual([]);
    expect(config.mcp_servers!.docs.url).toBe('https://mcp.example.com/mcp');
  });

  it('keeps the idp table of cross-app access', () => {
    const docs = load(server(XAA)).config.mcp_servers!.docs;
    expect(docs).toMatchObject({
      auth: 'cross_app_access',
      oauth: { client_id: 'svc', client_secret_env: 'SVC_SECRET' },
      idp: { token_endpoint: 'https://idp.example.com/token', client_id: 'arbor', id_token_env: 'IDP_ID_TOKEN' },
    });
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
    [
      'an unknown auth',
      server('auth = "magic"'),
      'mcp_servers.docs.auth',
      'must be one of "oauth", "client_credentials", "cross_app_access", got "magic"',
    ],
    [
      'idp on a stdio server',
      `${BASE}\n[mcp_servers.docs]\ncommand = "x"\nidp = { client_id = "a" }\n`,
      'mcp_servers.docs.idp',
      'idp applies to url servers, not to servers started with command',
    ],
    [
      'cross-app access without idp',
      server('auth = "cross_app_access"\noauth = { client_id = "svc", client_secret_env = "S" }'),
      'mcp_servers.docs.idp',
      'auth = "cross_app_access" needs idp = { token_endpoint, client_id, id_token_env }',
    ],
    [
      'idp without cross-app access',
      server(XAA.replace('auth = "cross_app_access"\n', '')),
      'mcp_servers.docs.idp',
      'idp applies only to auth = "cross_app_access"',
    ],
    [
      'cross-app access without a client id',
      server(XAA.replace('client_id = "svc", ', '')),
      'mcp_servers.docs.oauth.client_id',
      'auth = "cross_app_access" needs oauth.client_id',
    ],
    [
      'cross-app access without a client secret',
      server(XAA.replace(', client_secret_env = "SVC_SECRET"', '')),
      'mcp_servers.docs.oauth.client_secret_env',
      'auth = "cross_app_access" needs oauth.client_secret_env',
    ],
    [
      'cross-app access with a key file',
      server(XAA.replace('"SVC_SECRET"', '"SVC_SECRET", private_key_file = "k.pem"')),
      'mcp_servers.docs.oauth.private_key_file',
      'private_key_file applies only to auth = "client_credentials"',
    ],
    [
      'cross-app access with a callback port',
      server(`${XAA}\noauth_callback_port = 9000`),
      'mcp_servers.docs.oauth_callback_port',
      'oauth_callback_port applies to sign-in in a browser, not to auth = "cross_app_access"',
    ],
    [
      'cross-app access with a metadata URL',
      server(XAA.replace('"SVC_SECRET"', '"SVC_SECRET", client_metadata_url = "https://a.example/c.json"')),
      'mcp_servers.docs.oauth.client_metadata_url',
      'client_metadata_url applies to sign-in in a browser, not to auth = "cross_app_access"',
    ],
    [
      'an idp without a token endpoint',
      server(XAA.replace('token_endpoint = "https://idp.example.com/token", ', '')),
      'mcp_servers.docs.idp.token_endpoint',
      'missing required key',
    ],
    [
      'an idp token endpoint that is not a URL',
      server(XAA.replace('https://idp.example.com/token', 'idp/token')),
      'mcp_servers.docs.idp.token_endpoint',
      "must be an http(s) URL (the identity provider's token endpoint)",
    ],
    [
      'an idp without a client id',
      server(XAA.replace('client_id = "arbor", ', '')),
      'mcp_servers.docs.idp.client_id',
      'missing required key',
    ],
    [
      'an idp without an ID token variable',
      server(XAA.replace(', id_token_env = "IDP_ID_TOKEN"', '')),
      'mcp_servers.docs.idp.id_token_env',
      'missing required key',
    ],
    ['a bad ID token variable name', server(XAA.replace('"IDP_ID_TOKEN"', '"not a name"')), 'mcp_servers.docs.idp.id_token_env', null],
    [
      'a bad IdP secret variable name',
      server(XAA.replace('id_token_env', 'client_secret_env = "a-b", id_token_env')),
      'mcp_servers.docs.idp.client_secret_env',
      null,
    ],
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
