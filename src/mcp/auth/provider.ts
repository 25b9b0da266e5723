// The OAuthClientProvider arbor hands the SDK's HTTP transports: the SDK does discovery,
// registration, PKCE, the resource parameter, scope selection, step-up and refresh; this
// keeps what it learns in the server's AuthStore and decides who may sign in.
//
// Two modes. `passive` (every ordinary start, children, headless) uses the tokens the
// operator already granted and refreshes them, but never starts a sign-in: where the SDK
// would send a user to the authorization URL, it throws NeedsSignInError instead, and it
// never registers a client. `interactive` (/mcp login, arbor mcp login) has a callback
// listener on 127.0.0.1 and hands the authorization URL to the operator.
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServerConfig } from '../../config/types.js';
import { registerSecret } from '../../persistence/redact.js';
import type { AuthStore } from './store.js';

/** A server wants a user to sign in and this connection may not start one. */
export class NeedsSignInError extends Error {
  constructor(readonly server: string) {
    super('401 Unauthorized — needs sign-in');
  }
}

export interface InteractiveSignIn {
  /** http://127.0.0.1:<port>/callback */
  redirectUrl: string;
  /** The SDK built the authorization URL: show it (and open a browser). */
  authorize(url: URL, state: string): void;
}

/** A pre-registered client from the config (client_id, the secret read from its variable). */
export function configuredClient(config: McpServerConfig, env: NodeJS.ProcessEnv): OAuthClientInformationMixed | undefined {
  const o = config.oauth;
  if (!o?.client_id) return undefined;
  const secret = o.client_secret_env !== undefined ? env[o.client_secret_env] : undefined;
  if (o.client_secret_env !== undefined && !secret) throw new Error(`oauth.client_secret_env ${o.client_secret_env} is not set`);
  registerSecret(secret);
  return { client_id: o.client_id, ...(secret ? { client_secret: secret } : {}) };
}

/** Refresh this long before the access token expires. */
const REFRESH_MARGIN_MS = 60_000;

export class StoredOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private lastState: string | undefined;

  constructor(
    private readonly config: McpServerConfig,
    private readonly store: AuthStore,
    private readonly env: NodeJS.ProcessEnv,
    private readonly interactive?: InteractiveSignIn,
  ) {}

  get redirectUrl(): string {
    // Passive mode never completes an authorization; a redirect URL is still given so
    // the SDK treats this as a user flow (without one it would try client_credentials).
    return this.interactive?.redirectUrl ?? 'http://127.0.0.1/callback';
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.oauth?.client_metadata_url;
  }

  get clientMetadata(): OAuthClientMetadata {
    const secret = this.config.oauth?.client_secret_env !== undefined;
    const scopes = this.config.oauth?.scopes;
    return {
      client_name: 'arbor',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  /** The state of the authorization URL last built (the callback must echo it). */
  get expectedState(): string | undefined {
    return this.lastState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const configured = configuredClient(this.config, this.env);
    if (configured) return configured;
    const stored = this.store.read();
    if (!this.interactive) {
      // Without a grant there is nothing a passive connection can do: refuse before the
      // SDK registers a client nobody will use.
      if (!stored.tokens) throw new NeedsSignInError(this.config.name);
      return stored.client;
    }
    const client = stored.client as { redirect_uris?: string[]; client_id: string } | undefined;
    // A client registered for another callback port is registered again: authorization
    // servers match the redirect URI exactly.
    if (client?.redirect_uris && !client.redirect_uris.includes(this.redirectUrl)) return undefined;
    return stored.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.store.update({ client: info });
  }

  tokens(): OAuthTokens | undefined {
    return this.store.read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    const before = this.store.read().tokens;
    // A refresh answer may leave the refresh token out: the old one stays valid.
    const merged = { ...tokens, ...(tokens.refresh_token || !before?.refresh_token ? {} : { refresh_token: before.refresh_token }) };
    this.store.update({ tokens: merged, expiresAt: tokens.expires_in !== undefined ? Date.now() + tokens.expires_in * 1000 : undefined });
  }

  /** Whether the stored access token is expired or about to be, and can be refreshed. */
  shouldRefresh(now = Date.now()): boolean {
    const stored = this.store.read();
    return !!stored.tokens?.refresh_token && stored.expiresAt !== undefined && stored.expiresAt - REFRESH_MARGIN_MS <= now;
  }

  redirectToAuthorization(url: URL): void {
    if (!this.interactive) {
      // A step-up asked for more scope: remembered for the sign-in the user is told to run.
      const scope = url.searchParams.get('scope');
      if (scope && this.store.read().tokens) this.store.update({ wantedScope: scope });
      throw new NeedsSignInError(this.config.name);
    }
    const wanted = this.store.read().wantedScope;
    if (wanted) {
      const scopes = new Set([...(url.searchParams.get('scope') ?? '').split(' '), ...wanted.split(' ')].filter(Boolean));
      url.searchParams.set('scope', [...scopes].join(' '));
    }
    this.interactive.authorize(url, url.searchParams.get('state') ?? '');
  }

  /** A fetch for the transports that notes a step-up challenge (403 insufficient_scope):
   * the SDK answers it by refreshing, which cannot widen a grant, so the wider scope is
   * kept for the sign-in the user is told to run. */
  observingFetch(): typeof fetch {
    return async (input, init) => {
      const res = await fetch(input, init);
      if (res.status === 403) {
        const header = res.headers.get('www-authenticate') ?? '';
        const scope = /scope="([^"]*)"/.exec(header)?.[1];
        if (/error="insufficient_scope"/.test(header) && scope) this.store.update({ wantedScope: scope });
      }
      return res;
    };
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no sign-in is in progress');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') this.verifier = undefined;
    else if (scope === 'tokens') this.store.update({ tokens: undefined, expiresAt: undefined });
    else if (scope === 'client') this.store.update({ client: undefined });
    else if (scope === 'all') this.store.clear();
  }
}
