// `auth = "cross_app_access"` (SEP-990, enterprise-managed authorization): nobody signs in
// in a browser. The user's ID token from the enterprise IdP (read from `idp.id_token_env`)
// is exchanged at the IdP for an ID-JAG, an identity assertion for this server's
// authorization server (RFC 8693 token exchange), which arbor then presents there with
// the JWT-bearer grant (RFC 7523) as its pre-registered client. The SDK does discovery,
// client authentication and the token request; this supplies the grant. Tokens are kept
// in the server's AuthStore like a signed-in grant, so the next start reuses them.
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServerConfig } from '../../config/types.js';
import { registerSecret } from '../../persistence/redact.js';
import { configuredClient } from './provider.js';
import type { AuthStore } from './store.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

/** Re-exchange this long before the access token expires. */
const EXPIRY_MARGIN_MS = 30_000;

function secretFrom(env: NodeJS.ProcessEnv, key: string, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${key} ${name} is not set`);
  registerSecret(value);
  return value;
}

/** The IdP's answer to a failed exchange, in its own words (error and description). */
async function exchangeError(res: Response, endpoint: string): Promise<Error> {
  let detail = '';
  try {
    const body = (await res.json()) as { error?: unknown; error_description?: unknown };
    detail = [body.error, body.error_description].filter((s) => typeof s === 'string').join(': ');
  } catch {
    // Not JSON: the status says enough.
  }
  return new Error(`idp token exchange at ${endpoint} failed: ${res.status}${detail ? ` ${detail}` : ''}`);
}

export class CrossAppAccessAuth implements OAuthClientProvider {
  private discovery: OAuthDiscoveryState | undefined;
  private readonly client: OAuthClientInformationMixed;

  constructor(
    private readonly config: McpServerConfig,
    private readonly store: AuthStore,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.client = configuredClient(config, env)!;
  }

  get redirectUrl(): undefined {
    // No redirect URL: the SDK's non-interactive flow, which asks prepareTokenRequest.
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.config.oauth?.scopes;
    return {
      client_name: 'arbor',
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT],
      token_endpoint_auth_method: 'client_secret_basic',
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  clientInformation(): OAuthClientInformationMixed {
    return this.client;
  }

  tokens(): OAuthTokens | undefined {
    const stored = this.store.read();
    // An expired token would only earn a 401 first; without one the SDK exchanges anew.
    if (stored.expiresAt !== undefined && stored.expiresAt - EXPIRY_MARGIN_MS <= Date.now()) return undefined;
    return stored.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.store.update({ tokens, expiresAt: tokens.expires_in !== undefined ? Date.now() + tokens.expires_in * 1000 : undefined });
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  redirectToAuthorization(): void {
    throw new Error('cross_app_access has no sign-in in a browser');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error('cross_app_access has no sign-in in a browser');
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'tokens' || scope === 'all') this.store.update({ tokens: undefined, expiresAt: undefined });
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
  }

  /** The JWT-bearer grant with a fresh ID-JAG: called by the SDK after discovery, so the
   * authorization server (the ID-JAG's audience) and the resource are known. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const wanted = scope ?? this.clientMetadata.scope;
    const assertion = await this.exchangeIdToken(wanted);
    const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion });
    if (wanted) params.set('scope', wanted);
    return params;
  }

  /** RFC 8693 at the IdP: the user's ID token for an ID-JAG naming this server's
   * authorization server and resource. */
  private async exchangeIdToken(scope: string | undefined): Promise<string> {
    const idp = this.config.idp!;
    const idToken = secretFrom(this.env, 'idp.id_token_env', idp.id_token_env);
    const audience = this.discovery?.authorizationServerMetadata?.issuer ?? this.discovery?.authorizationServerUrl;
    if (!audience) throw new Error('cross_app_access: the authorization server is not known yet (no discovery)');
    const resource = this.discovery?.resourceMetadata?.resource ?? this.config.url!;
    const body = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE_GRANT,
      requested_token_type: ID_JAG_TYPE,
      subject_token: idToken,
      subject_token_type: ID_TOKEN_TYPE,
      audience,
      resource,
      client_id: idp.client_id,
    });
    if (scope) body.set('scope', scope);
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
    if (idp.client_secret_env !== undefined) {
      const secret = secretFrom(this.env, 'idp.client_secret_env', idp.client_secret_env);
      // RFC 6749 §2.3.1: both parts form-encoded before Basic.
      const basic = `${encodeURIComponent(idp.client_id)}:${encodeURIComponent(secret)}`;
      headers.Authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
    }
    let res: Response;
    try {
      res = await fetch(idp.token_endpoint, { method: 'POST', headers, body });
    } catch (err) {
      throw new Error(`idp token exchange at ${idp.token_endpoint}: ${(err as Error).message}`, { cause: err });
    }
    if (!res.ok) throw await exchangeError(res, idp.token_endpoint);
    const answer = (await res.json().catch(() => ({}))) as { access_token?: unknown; issued_token_type?: unknown };
    if (typeof answer.access_token !== 'string' || answer.access_token === '') {
      throw new Error(`idp token exchange at ${idp.token_endpoint}: the answer has no access_token`);
    }
    if (answer.issued_token_type !== undefined && answer.issued_token_type !== ID_JAG_TYPE) {
      throw new Error(`idp token exchange at ${idp.token_endpoint}: issued ${String(answer.issued_token_type)}, not an ID-JAG`);
    }
    registerSecret(answer.access_token);
    return answer.access_token;
  }
}
