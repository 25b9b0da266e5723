// The sign-in callback: a one-shot HTTP listener on 127.0.0.1 (never another interface)
// that the authorization server redirects the browser to. It takes the first request to
// /callback whose `state` matches, answers the browser with a short page, and resolves
// with the code (or rejects with the server's error); anything else gets a 404.
import { createServer, type Server } from 'node:http';

export interface CallbackResult {
  code: string;
}

export class CallbackListener {
  private server: Server | undefined;
  private waiting: { resolve(r: CallbackResult): void; reject(e: Error): void } | undefined;
  private settled: { ok: CallbackResult } | { err: Error } | undefined;
  /** The state the callback must carry. */
  expectedState: string | undefined;
  port = 0;

  /** Listens on `port` (0: a free one). */
  async listen(port: number): Promise<void> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback' || this.settled) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      const state = url.searchParams.get('state') ?? '';
      if (this.expectedState !== undefined && state !== this.expectedState) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('sign-in state does not match; start again from arbor\n');
        return;
      }
      const code = url.searchParams.get('code');
      const error = url.searchParams.get('error');
      if (code) {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Signed in. You can close this tab and return to arbor.\n');
        this.finish({ ok: { code } });
        return;
      }
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Sign-in failed. Return to arbor.\n');
      const why = `${error ?? 'no code'}${url.searchParams.get('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}`;
      this.finish({ err: new Error(`the authorization server refused: ${why}`) });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) =>
        reject(new Error(err.code === 'EADDRINUSE' ? `oauth_callback_port ${port} is in use` : `callback listener: ${err.message}`)),
      );
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const addr = server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : port;
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  private finish(outcome: { ok: CallbackResult } | { err: Error }): void {
    this.settled = outcome;
    if ('ok' in outcome) this.waiting?.resolve(outcome.ok);
    else this.waiting?.reject(outcome.err);
  }

  /** The code, once the browser comes back; rejects when `signal` aborts. */
  wait(signal?: AbortSignal): Promise<CallbackResult> {
    if (this.settled) return 'ok' in this.settled ? Promise.resolve(this.settled.ok) : Promise.reject(this.settled.err);
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new Error('sign-in cancelled'));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting = {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      };
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}
