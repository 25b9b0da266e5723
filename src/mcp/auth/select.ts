// Which provider a url server's transports get: none for a server with its own
// Authorization (bearer_token_env or a header), client credentials for
// `auth = "client_credentials"`, the IdP token exchange for `auth = "cross_app_access"`, and otherwise the stored-grant OAuth provider, since any
// server may answer 401 and ask users to sign in.
import type { McpServerConfig } from '../../config/types.js';
import { ClientCredentialsAuth } from './clientCredentials.js';
import { CrossAppAccessAuth } from './crossAppAccess.js';
import { NeedsSignInError, StoredOAuthProvider } from './provider.js';
import { AuthStore } from './store.js';

export type McpAuthProvider = StoredOAuthProvider | ClientCredentialsAuth | CrossAppAccessAuth | undefined;

export interface AuthDeps {
  authDir?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function authStoreFor(config: McpServerConfig, authDir: string): AuthStore {
  return new AuthStore(authDir, config.name, config.url!);
}

export function authProviderFor(config: McpServerConfig, headers: Record<string, string>, deps: AuthDeps): McpAuthProvider {
  if (Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
  if (config.auth === 'client_credentials') return new ClientCredentialsAuth(config, deps.env, deps.cwd);
  if (deps.authDir === undefined) return undefined;
  if (config.auth === 'cross_app_access') return new CrossAppAccessAuth(config, authStoreFor(config, deps.authDir), deps.env);
  return new StoredOAuthProvider(config, authStoreFor(config, deps.authDir), deps.env);
}

type ErrorClass = abstract new (...args: never[]) => Error;
let sdkUnauthorized: ErrorClass | undefined;

/** Loads the SDK's auth module (with the transports, on first connect) so isSignInError
 * can recognise its UnauthorizedError. */
export async function loadAuthSdk(): Promise<void> {
  sdkUnauthorized ??= (await import('@modelcontextprotocol/sdk/client/auth.js')).UnauthorizedError;
}

/** A failure that sign-in would fix: our passive provider's refusal, or the SDK's
 * UnauthorizedError after it could not authorize. */
export function isSignInError(err: unknown): boolean {
  return err instanceof NeedsSignInError || (sdkUnauthorized !== undefined && err instanceof sdkUnauthorized);
}

/** Refreshes a stored grant whose access token expires within the margin, before the
 * connect sends it. A failed refresh is not fatal here: the server's 401 runs the SDK's
 * own recovery, which ends in needs-sign-in when nothing works. */
export async function refreshIfDue(provider: McpAuthProvider, url: URL): Promise<void> {
  if (!(provider instanceof StoredOAuthProvider) || !provider.shouldRefresh()) return;
  const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
  try {
    await auth(provider, { serverUrl: url });
  } catch {
    // See above.
  }
}

/** The transports' fetch: the stored-grant provider watches for step-up challenges. */
export function observingFetch(provider: McpAuthProvider): typeof fetch | undefined {
  return provider instanceof StoredOAuthProvider ? provider.observingFetch() : undefined;
}
