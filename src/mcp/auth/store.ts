// What sign-in leaves behind for one server: the registered client and the tokens, in
// $ARBOR_HOME/mcp-auth/<server>-<hash of its URL>.json (0600 in a 0700 folder), so a
// server moved to another URL (another resource) never gets the old server's tokens.
// Every secret read or written is registered for scrubbing: a server echoing a token
// back into a tool result or an error never puts it in a session or a log.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { makePrivateDir, writePrivate } from '../../persistence/privateFs.js';
import { registerSecret } from '../../persistence/redact.js';

export interface StoredAuth {
  /** The server URL the grant is for (the resource). */
  url: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** Epoch ms when the access token expires (from expires_in at save time). */
  expiresAt?: number;
  /** The scope a server asked for beyond the grant (a step-up): the next sign-in asks for it. */
  wantedScope?: string;
}

export class AuthStore {
  readonly path: string;

  constructor(
    readonly dir: string,
    readonly server: string,
    readonly url: string,
  ) {
    const hash = createHash('sha256').update(url).digest('hex').slice(0, 12);
    this.path = join(dir, `${server}-${hash}.json`);
  }

  read(): StoredAuth {
    let data: StoredAuth;
    try {
      data = JSON.parse(readFileSync(this.path, 'utf8')) as StoredAuth;
    } catch {
      return { url: this.url };
    }
    if (data?.url !== this.url) return { url: this.url };
    registerSecret(data.tokens?.access_token);
    registerSecret(data.tokens?.refresh_token);
    registerSecret((data.client as { client_secret?: string } | undefined)?.client_secret);
    return data;
  }

  /** Merges `patch` into what is stored (written whole to a temp file, then renamed, so a
   * crash never leaves half a file). */
  update(patch: Partial<Omit<StoredAuth, 'url'>>): void {
    const next: StoredAuth = { ...this.read(), ...patch, url: this.url };
    registerSecret(next.tokens?.access_token);
    registerSecret(next.tokens?.refresh_token);
    registerSecret((next.client as { client_secret?: string } | undefined)?.client_secret);
    makePrivateDir(this.dir);
    const tmp = `${this.path}.${process.pid}.tmp`;
    writePrivate(tmp, `${JSON.stringify(next, null, 2)}\n`);
    renameSync(tmp, this.path);
  }

  hasTokens(): boolean {
    return this.read().tokens?.access_token !== undefined;
  }

  /** Forgets the server's tokens and client (`/mcp logout`). */
  clear(): void {
    rmSync(this.path, { force: true });
  }
}
