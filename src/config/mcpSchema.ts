// `[mcp_servers.<name>]`: one MCP server arbor starts (stdio: command, args, env, cwd) or
// connects to (Streamable HTTP, SSE for old servers: url, headers, bearer_token_env). The
// keys follow Codex's convention. Which transport an entry means is decided by command vs
// url, so those two are checked first and every key that belongs to the other transport
// is an error naming it, not a silently ignored setting.
import { z } from 'zod';
import { t } from '../i18n/index.js';
import { quote } from './errors.js';
import {
  boolean,
  envVarName,
  integer,
  isHttpUrl,
  looseTable,
  mcpDuration,
  missingKey,
  namedTables,
  number,
  oneOf,
  string,
  stringList,
  stringMap,
  table,
} from './fields.js';

/** Server names become part of tool names (`mcp__<server>__<tool>`), which providers limit
 * to letters, digits, `_` and `-`; `__` is the separator, so a name may not hold it. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]+$/;

const STDIO_ONLY = ['args', 'env', 'cwd'] as const;
const HTTP_ONLY = ['headers', 'bearer_token_env', 'oauth', 'auth', 'oauth_callback_port', 'idp'] as const;

const mcpIdentity = looseTable({ command: string({ nonEmpty: true }).optional(), url: string({ nonEmpty: true }).optional() }).check(
  (ctx) => {
    const e = ctx.value;
    const problem = (path: string[], message: string): void => void ctx.issues.push({ code: 'custom', input: e, path, message });
    if (e.command !== undefined && e.url !== undefined) return problem(['url'], t('config:errors.mcpBoth'));
    if (e.command === undefined && e.url === undefined) return problem([], t('config:errors.mcpNeither'));
    if (e.url !== undefined && !isHttpUrl(e.url)) return problem(['url'], t('config:errors.badUrl', { value: quote(e.url) }));
    const other = e.url !== undefined ? STDIO_ONLY.find((k) => e[k] !== undefined) : HTTP_ONLY.find((k) => e[k] !== undefined);
    if (other) problem([other], t(e.url !== undefined ? 'config:errors.mcpStdioOnly' : 'config:errors.mcpHttpOnly', { key: other }));
  },
);

/** `oauth = { ... }`: what arbor sends an authorization server. Every key is optional:
 * without any, arbor registers itself (dynamic client registration) on first sign-in. */
const oauthSchema = table({
  client_id: string({ nonEmpty: true }).optional(),
  /** The NAME of the variable holding the client secret. */
  client_secret_env: envVarName().optional(),
  scopes: stringList().optional(),
  client_metadata_url: string({ nonEmpty: true })
    .refine(isHttpsDocumentUrl, { error: () => t('config:errors.mcpMetadataUrl') })
    .optional(),
  /** client_credentials with a private-key JWT (RFC 7523) instead of a secret. */
  private_key_file: string({ nonEmpty: true }).optional(),
  key_id: string({ nonEmpty: true }).optional(),
});

/** `idp = { ... }` for `auth = "cross_app_access"` (SEP-990, enterprise-managed sign-in):
 * the enterprise identity provider that trades the user's ID token for an ID-JAG. */
const idpSchema = table({
  /** The IdP's token endpoint (RFC 8693 token exchange). */
  token_endpoint: string({ nonEmpty: true, missing: missingKey }).refine(isHttpUrl, { error: () => t('config:errors.mcpIdpEndpoint') }),
  /** arbor's client id at the IdP. */
  client_id: string({ nonEmpty: true, missing: missingKey }),
  /** The NAME of the variable holding arbor's client secret at the IdP (if it has one). */
  client_secret_env: envVarName().optional(),
  /** The NAME of the variable holding the user's ID token from the IdP. */
  id_token_env: envVarName({ missing: missingKey }),
});

/** SEP-991 asks for an https URL with a path: the document's URL is the client id. */
function isHttpsDocumentUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}

/** The combinations a single key cannot refuse on its own. */
function checkAuth(ctx: { value: McpServerFieldsRaw; issues: z.core.$ZodRawIssue[] }): void {
  const e = ctx.value;
  const problem = (path: string[], message: string): void => void ctx.issues.push({ code: 'custom', input: e, path, message });
  const o = e.oauth;
  if (e.bearer_token_env !== undefined && (o !== undefined || e.auth !== undefined)) {
    return problem([o !== undefined ? 'oauth' : 'auth'], t('config:errors.mcpBearerAndOauth'));
  }
  if (e.idp !== undefined && e.auth !== 'cross_app_access') return problem(['idp'], t('config:errors.mcpIdpNeedsXaa'));
  if (e.auth === 'cross_app_access') return checkCrossAppAccess(e, problem);
  if (e.auth === 'client_credentials') {
    if (!o?.client_id) return problem(['oauth', 'client_id'], t('config:errors.mcpCcNeedsClientId'));
    if (o.client_secret_env === undefined && o.private_key_file === undefined)
      return problem(['oauth'], t('config:errors.mcpCcNeedsCredential'));
    if (o.client_secret_env !== undefined && o.private_key_file !== undefined)
      return problem(['oauth', 'private_key_file'], t('config:errors.mcpCcBothCredentials'));
    if (o.key_id !== undefined && o.private_key_file === undefined)
      return problem(['oauth', 'key_id'], t('config:errors.mcpKeyIdNeedsKey'));
    if (e.oauth_callback_port !== undefined) return problem(['oauth_callback_port'], t('config:errors.mcpCcNoCallback'));
    if (o.client_metadata_url !== undefined) return problem(['oauth', 'client_metadata_url'], t('config:errors.mcpCcNoMetadataUrl'));
    return;
  }
  if (o?.private_key_file !== undefined) return problem(['oauth', 'private_key_file'], t('config:errors.mcpKeyNeedsCc'));
  if (o?.key_id !== undefined) return problem(['oauth', 'key_id'], t('config:errors.mcpKeyIdNeedsKey'));
  if (o?.client_secret_env !== undefined && o.client_id === undefined)
    return problem(['oauth', 'client_secret_env'], t('config:errors.mcpSecretNeedsClientId'));
}

/** Cross-app access: a pre-registered client at the server's authorization server, the
 * IdP to exchange the ID token at, and no browser. */
function checkCrossAppAccess(e: McpServerFieldsRaw, problem: (path: string[], message: string) => void): void {
  const o = e.oauth;
  if (e.idp === undefined) return problem(['idp'], t('config:errors.mcpXaaNeedsIdp'));
  if (!o?.client_id) return problem(['oauth', 'client_id'], t('config:errors.mcpXaaNeedsClientId'));
  if (o.client_secret_env === undefined) return problem(['oauth', 'client_secret_env'], t('config:errors.mcpXaaNeedsSecret'));
  if (o.private_key_file !== undefined) return problem(['oauth', 'private_key_file'], t('config:errors.mcpKeyNeedsCc'));
  if (o.key_id !== undefined) return problem(['oauth', 'key_id'], t('config:errors.mcpKeyIdNeedsKey'));
  if (e.oauth_callback_port !== undefined)
    return problem(['oauth_callback_port'], t('config:errors.mcpXaaNoBrowser', { key: 'oauth_callback_port' }));
  if (o.client_metadata_url !== undefined)
    return problem(['oauth', 'client_metadata_url'], t('config:errors.mcpXaaNoBrowser', { key: 'client_metadata_url' }));
}

const mcpServerSchema = mcpIdentity.pipe(
  z
    .object({
      command: string({ nonEmpty: true }).optional(),
      args: stringList().default(() => []),
      env: stringMap().optional(),
      cwd: string({ nonEmpty: true }).optional(),
      url: string({ nonEmpty: true }).optional(),
      headers: stringMap().optional(),
      /** The NAME of the variable holding the token; the value is read at connect time. */
      bearer_token_env: envVarName().optional(),
      oauth: oauthSchema.optional(),
      /** `oauth` (the default: a user signs in when the server asks), `client_credentials`
       * (machine to machine, no user) or `cross_app_access` (the user's enterprise IdP
       * vouches for them, no browser). */
      auth: oneOf(['oauth', 'client_credentials', 'cross_app_access']).optional(),
      idp: idpSchema.optional(),
      /** The sign-in callback's port on 127.0.0.1 (random when absent). */
      oauth_callback_port: integer({ min: 1, max: 65535 }).optional(),
      enabled: boolean().default(true),
      startup_timeout_secs: number(mcpDuration).default(10),
      tool_timeout_secs: number(mcpDuration).default(60),
    })
    .check(checkAuth),
);

type McpServerFieldsRaw = {
  bearer_token_env?: string;
  auth?: 'oauth' | 'client_credentials' | 'cross_app_access';
  oauth_callback_port?: number;
  idp?: z.output<typeof idpSchema>;
  oauth?: z.output<typeof oauthSchema>;
};

export const mcpServersSchema = namedTables(mcpServerSchema).check((ctx) => {
  for (const name of Object.keys(ctx.value)) {
    if (MCP_SERVER_NAME.test(name) && !name.includes('__')) continue;
    ctx.issues.push({ code: 'custom', input: name, path: [name], message: t('config:errors.mcpBadName', { name: quote(name) }) });
  }
});

export type McpServerFields = z.output<typeof mcpServerSchema>;
