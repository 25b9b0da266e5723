// `auth = "client_credentials"`: a machine-to-machine server, no user. The client proves
// itself with the secret from `oauth.client_secret_env` (HTTP Basic, through the SDK's
// ClientCredentialsProvider) or with a JWT signed by `oauth.private_key_file` (RFC 7523,
// `key_id` as the JWT's kid). Tokens live in memory only: getting a new one needs nobody.
import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { AddClientAuthentication, OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServerConfig } from '../../config/types.js';
import { registerSecret } from '../../persistence/redact.js';

/** The JWS algorithm a private key signs with. */
function algorithmOf(key: KeyObject): string {
  const type = key.asymmetricKeyType;
  if (type === 'rsa' || type === 'rsa-pss') return type === 'rsa' ? 'RS256' : 'PS256';
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1' || curve === 'P-256') return 'ES256';
    if (curve === 'secp384r1' || curve === 'P-384') return 'ES384';
    if (curve === 'secp521r1' || curve === 'P-521') return 'ES512';
  }
  throw new Error(`oauth.private_key_file: unsupported key type ${type ?? 'unknown'}`);
}

function readKey(file: string, cwd: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(resolvePath(cwd, file), 'utf8');
  } catch (err) {
    throw new Error(`oauth.private_key_file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
  try {
    return createPrivateKey(pem);
  } catch (err) {
    throw new Error(`oauth.private_key_file ${file}: not a PEM private key`, { cause: err });
  }
}

/** A signed client assertion for each token request. */
function jwtAuthentication(clientId: string, key: KeyObject, keyId: string | undefined): AddClientAuthentication {
  const alg = algorithmOf(key);
  return async (_headers, params, url, metadata) => {
    const jose = await import('jose');
    const audience = String(metadata?.issuer ?? url);
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new jose.SignJWT({})
      .setProtectedHeader({ alg, typ: 'JWT', ...(keyId ? { kid: keyId } : {}) })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .setJti(randomUUID())
      .sign(key);
    params.set('client_assertion', assertion);
    params.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
  };
}

export class ClientCredentialsAuth implements OAuthClientProvider {
  private current: OAuthTokens | undefined;
  private readonly client: OAuthClientInformationMixed;
  readonly addClientAuthentication: AddClientAuthentication | undefined;
  private readonly scope: string | undefined;

  constructor(config: McpServerConfig, env: NodeJS.ProcessEnv, cwd: string) {
    const o = config.oauth!;
    const clientId = o.client_id!;
    this.scope = o.scopes && o.scopes.length > 0 ? o.scopes.join(' ') : undefined;
    if (o.private_key_file !== undefined) {
      this.client = { client_id: clientId };
      this.addClientAuthentication = jwtAuthentication(clientId, readKey(o.private_key_file, cwd), o.key_id);
    } else {
      const secret = env[o.client_secret_env!];
      if (!secret) throw new Error(`oauth.client_secret_env ${o.client_secret_env} is not set`);
      registerSecret(secret);
      this.client = { client_id: clientId, client_secret: secret };
      this.addClientAuthentication = undefined;
    }
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'arbor',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: this.addClientAuthentication ? 'private_key_jwt' : 'client_secret_basic',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }

  clientInformation(): OAuthClientInformationMixed {
    return this.client;
  }

  tokens(): OAuthTokens | undefined {
    return this.current;
  }

  saveTokens(tokens: OAuthTokens): void {
    registerSecret(tokens.access_token);
    this.current = tokens;
  }

  redirectToAuthorization(): void {
    throw new Error('client_credentials has no sign-in');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error('client_credentials has no sign-in');
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope ?? this.scope) params.set('scope', (scope ?? this.scope)!);
    return params;
  }
}
