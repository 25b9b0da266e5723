// Sign-in (`/mcp login`, `arbor mcp login`): the only place a browser authorization runs.
// A callback listener on 127.0.0.1, a probe connection whose OAuth provider is in
// interactive mode (the SDK discovers, registers, builds the PKCE authorization URL; the
// URL is shown and a browser opened), then the code from the callback is exchanged by
// the SDK (transport.finishAuth) and the grant stored. The manager then starts the
// server afresh with it.
import type { McpServerConfig } from '../../config/types.js';
import { knownSecrets, SECRET_ENV_NAME } from '../../persistence/redact.js';
import { openBrowser } from './browser.js';
import { CallbackListener } from './callback.js';
import { StoredOAuthProvider } from './provider.js';
import { isSignInError, loadAuthSdk } from './select.js';
import type { AuthStore } from './store.js';

export interface SignInView {
  /** The authorization URL (always shown); `opened`: a browser was started on it. */
  authorizationUrl(url: string, opened: boolean): void;
}

export interface SignInOptions {
  config: McpServerConfig;
  store: AuthStore;
  env: NodeJS.ProcessEnv;
  view: SignInView;
  signal?: AbortSignal;
  /** Start a browser on the URL (false: only show it). */
  browser: boolean;
  /** Fetch used by the SDK (tests); the global one otherwise. */
  fetch?: typeof fetch;
}

/** 'signed-in', or 'not-needed' when the server let the probe in without a grant. */
export type SignInOutcome = 'signed-in' | 'not-needed';

/** The browser's environment: no secrets (provider keys, tokens, client secrets). */
export function browserEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const secrets = new Set(knownSecrets(env));
  return Object.fromEntries(Object.entries(env).filter(([k, v]) => !SECRET_ENV_NAME.test(k) && !(v && secrets.has(v))));
}

export async function signIn(opts: SignInOptions): Promise<SignInOutcome> {
  const { config, store } = opts;
  const url = new URL(config.url!);
  const listener = new CallbackListener();
  await listener.listen(config.oauth_callback_port ?? 0);
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    loadAuthSdk(),
  ]);
  try {
    // A sign-in always asks anew (another account, more scope): the old grant goes.
    store.update({ tokens: undefined, expiresAt: undefined });
    const provider = new StoredOAuthProvider(config, store, opts.env, {
      redirectUrl: listener.redirectUrl,
      authorize: (authUrl, state) => {
        listener.expectedState = state;
        const opened = opts.browser && openBrowser(authUrl.href, browserEnv(opts.env));
        opts.view.authorizationUrl(authUrl.href, opened);
      },
    });
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: config.headers ?? {} },
      authProvider: provider,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
    const client = new Client({ name: 'arbor', version: '1' });
    try {
      await client.connect(transport);
      // Some servers let initialize in and guard the tools: the probe asks for them too.
      await client.listTools();
      await transport.terminateSession().catch(() => {});
      await client.close();
      return 'not-needed';
    } catch (err) {
      if (!isSignInError(err)) throw err;
    }
    const { code } = await listener.wait(opts.signal);
    await transport.finishAuth(code);
    store.update({ wantedScope: undefined });
    return 'signed-in';
  } finally {
    await listener.close();
  }
}
