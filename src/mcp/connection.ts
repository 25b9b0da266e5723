// One MCP server: its process or HTTP session, its tool list and its state. Built on the
// official SDK's Client and transports, loaded on first use so the chat's start never
// waits for them. A stdio server gets the environment the manager builds (secrets removed,
// a reaper marker added, the entry's own env on top); a url server gets the entry's
// headers and, when bearer_token_env is set, an Authorization header read from that
// variable at connect time (the value is never logged, shown or kept in a view). Any other
// url server may sign users in: its transports get an OAuth provider (src/mcp/auth) that
// uses stored grants and never starts a sign-in on its own (`needs-sign-in` instead).
import { resolve as resolvePath } from 'node:path';
import type { McpServerConfig } from '../config/types.js';
import type { McpServerStatus, McpTransportKind } from '../model/mcp.js';
import { registerSecret } from '../persistence/redact.js';
import { authProviderFor, isSignInError, loadAuthSdk, observingFetch, refreshIfDue, type McpAuthProvider } from './auth/select.js';
import { describeConnectError, httpStatusOf, worthSseFallback } from './connectErrors.js';
import { installClientHandlers, type ElicitationCompleteHandler, type ElicitationHandler } from './elicitation.js';
import { formatToolResult } from './results.js';
import { StderrTail } from './stderrTail.js';
import { startTimer, type Timer } from '../timers/timer.js';

type SdkClient = import('@modelcontextprotocol/sdk/client/index.js').Client;
type SdkTransport = import('@modelcontextprotocol/sdk/shared/transport.js').Transport;
type HttpTransport = import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;

export interface McpToolInfo {
  /** The server's name for the tool. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
}

export interface McpConnectionDeps {
  /** Where relative `cwd` entries resolve (arbor's workspace). */
  cwd: string;
  /** Looked up for bearer_token_env. */
  env: NodeJS.ProcessEnv;
  /** The environment of a stdio server process, tagged with a reaper marker. */
  spawnEnv(server: McpServerConfig): { env: Record<string, string>; marker: string };
  /** A stdio server's process started (the reaper learns its marker). */
  processStarted?(marker: string): void;
  /** It is gone or being closed: whatever carries the marker is ended. */
  processEnded?(marker: string): Promise<void> | void;
  /** Any change of state or tools. */
  changed(): void;
  /** $ARBOR_HOME/mcp-auth: where sign-in grants are kept (absent: no OAuth). */
  authDir?: string;
  /** Answers a server's elicitation/create (absent: every request is declined). */
  elicit?: ElicitationHandler;
  /** A server's notifications/elicitation/complete (a URL-mode step it saw finish). */
  elicitComplete?: ElicitationCompleteHandler;
}

/** Thrown for a call the server could not take (not started, gone, timed out). */
export class McpCallError extends Error {}

const CLIENT_INFO = { name: 'arbor', version: '1' };
/** Form- and URL-mode elicitation are declared; sampling and roots are not (the SDK answers them
 * with Method not found, so a server that asks anyway gets an error, never silence). */
const CLIENT_OPTIONS = { capabilities: { elicitation: { form: { applyDefaults: true }, url: {} } } };
/** How long an ending Streamable HTTP session's DELETE may take. */
const DELETE_WAIT_MS = 1000;

export class McpConnection {
  status: McpServerStatus = 'stopped';
  transport: McpTransportKind;
  tools: McpToolInfo[] = [];
  /** Tools of the last start that were left out, one line each naming the tool and why. */
  warnings: string[] = [];
  error: string | undefined;
  private client: SdkClient | undefined;
  /** The live Streamable HTTP transport (its session is DELETEd on close). */
  private http: HttpTransport | undefined;
  /** The OAuth (or client credentials) provider of a url server, kept across restarts. */
  private auth: McpAuthProvider | undefined;
  private marker: string | undefined;
  private closing = false;
  private starting: Promise<void> | undefined;
  private readonly stderr = new StderrTail();
  /** Bumped by every start and close: a late event of an older attempt changes nothing. */
  private generation = 0;

  constructor(
    readonly config: McpServerConfig,
    private readonly deps: McpConnectionDeps,
  ) {
    this.transport = config.url !== undefined ? 'http' : 'stdio';
    if (!config.enabled) this.status = 'disabled';
  }

  /** Starts (or restarts) the server; resolves once it is ready or failed, never rejects.
   * The startup timeout bounds it. */
  start(): Promise<void> {
    const gen = ++this.generation;
    this.closing = false;
    this.status = 'starting';
    this.error = undefined;
    this.tools = [];
    this.warnings = [];
    this.stderr.clear();
    this.deps.changed();
    const secs = this.config.startup_timeout_secs;
    let timer: Timer | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = startTimer(secs * 1000, () => resolve('timeout'), { unref: true });
    });
    const attempt = this.connect(gen).then(
      () => 'ok' as const,
      (err: unknown) => err as Error,
    );
    this.starting = Promise.race([attempt, timeout]).then(async (outcome) => {
      timer?.clear();
      if (gen !== this.generation) return;
      if (outcome === 'ok') {
        this.status = 'ready';
        this.deps.changed();
        return;
      }
      if (outcome !== 'timeout' && isSignInError(outcome)) {
        await this.fail(gen, '401 Unauthorized — needs sign-in', 'needs-sign-in');
        return;
      }
      const why = outcome === 'timeout' ? `did not start within ${secs} s` : this.describe(outcome);
      await this.fail(gen, why);
    });
    return this.starting;
  }

  /** Resolves when the current start has finished (ready or failed). */
  whenSettled(): Promise<void> {
    return this.starting ?? Promise.resolve();
  }

  private describe(err: unknown): string {
    const code = (err as { code?: unknown }).code;
    // -32000 is the SDK's ConnectionClosed: the connect was cut by the server leaving.
    if (code === -32000) return 'the server closed the connection while starting';
    if (this.config.url !== undefined && !(err as NodeJS.ErrnoException)?.syscall)
      return describeConnectError(err, new URL(this.config.url));
    return describeError(err);
  }

  /** A new SDK client with arbor's capabilities and request handlers. */
  private async newClient(): Promise<SdkClient> {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client(CLIENT_INFO, CLIENT_OPTIONS);
    await installClientHandlers(
      client,
      this.config.name,
      this.deps.elicit,
      () => [...new Set(this.inFlight.values())],
      this.deps.elicitComplete,
    );
    return client;
  }

  private async connect(gen: number): Promise<void> {
    if (this.config.url !== undefined) {
      const url = new URL(this.config.url);
      const headers = this.httpHeaders();
      await loadAuthSdk();
      this.auth ??= authProviderFor(this.config, headers, this.deps);
      const authProvider = this.auth;
      await refreshIfDue(authProvider, url);
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      try {
        const transport = new StreamableHTTPClientTransport(url, {
          requestInit: { headers },
          authProvider,
          fetch: observingFetch(authProvider),
        });
        await this.open(gen, await this.newClient(), transport, 'http');
        return;
      } catch (err) {
        if (gen !== this.generation || isSignInError(err) || !worthSseFallback(err, url)) throw err;
        // Servers older than the 2025-03-26 protocol speak only HTTP+SSE: the spec's
        // backwards-compatibility rule is to try that after a failed POST.
        const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
        const withHeaders: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...headersOf(init?.headers), ...headers } });
        const sse = new SSEClientTransport(url, { requestInit: { headers }, eventSourceInit: { fetch: withHeaders }, authProvider });
        try {
          await this.open(gen, await this.newClient(), sse, 'sse');
        } catch (sseErr) {
          if (gen !== this.generation || isSignInError(sseErr)) throw sseErr;
          // Both were tried: both reasons, the newer transport's first.
          throw new Error(`Streamable HTTP: ${describeConnectError(err, url)}; SSE: ${describeConnectError(sseErr, url)}`, {
            cause: sseErr,
          });
        }
        return;
      }
    }
    const { BoundedStdioTransport } = await import('./stdioTransport.js');
    // Closed (or restarted) while the SDK loaded: start no process for a dead attempt.
    if (gen !== this.generation) throw new Error('superseded');
    const { env, marker } = this.deps.spawnEnv(this.config);
    this.marker = marker;
    // Our transport, not the SDK's: a message past its read buffer closed the connection.
    const transport = new BoundedStdioTransport({
      command: this.config.command!,
      args: this.config.args,
      env: { ...env, ...(this.config.env ?? {}) },
      cwd: this.config.cwd !== undefined ? resolvePath(this.deps.cwd, this.config.cwd) : this.deps.cwd,
    });
    transport.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    this.deps.processStarted?.(marker);
    await this.open(gen, await this.newClient(), transport, 'stdio', marker);
  }

  private httpHeaders(): Record<string, string> {
    const headers: Record<string, string> = { ...(this.config.headers ?? {}) };
    const name = this.config.bearer_token_env;
    if (name !== undefined) {
      const token = this.deps.env[name];
      if (!token) throw new Error(`bearer_token_env ${name} is not set`);
      // Scrubbed from session and trace files should a server echo it back.
      registerSecret(token);
      headers.Authorization = `Bearer ${token}`;
    }
    return headers;
  }

  private async open(gen: number, client: SdkClient, transport: SdkTransport, kind: McpTransportKind, marker?: string): Promise<void> {
    let closedWhileStarting = false;
    client.onclose = () => {
      if (gen !== this.generation || this.closing) return;
      // While starting, the connect's own failure (401, 404, a refused connection, the
      // server leaving) says why; a close now would only hide it.
      if (this.status === 'starting') {
        closedWhileStarting = true;
        return;
      }
      void this.fail(gen, 'the server exited');
    };
    // Errors on an open connection (a bad message) are not fatal; a close follows if it is.
    client.onerror = () => {};
    if (gen === this.generation) this.client = client;
    try {
      await client.connect(transport, { timeout: this.config.startup_timeout_secs * 1000 });
    } catch (err) {
      if (gen !== this.generation) await this.discard(client, marker);
      throw err;
    }
    // Closed or restarted while connecting: this attempt's client and process are nobody's.
    if (gen !== this.generation) {
      await this.discard(client, marker);
      return;
    }
    const { listToolsTolerantly } = await import('./toolList.js');
    const list = await listToolsTolerantly(client, this.config.startup_timeout_secs * 1000);
    const tools: McpToolInfo[] = list.tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? tool.title ?? '',
      inputSchema: tool.inputSchema as Record<string, unknown>,
      readOnly: tool.annotations?.readOnlyHint === true,
    }));
    if (gen !== this.generation) return;
    if (closedWhileStarting) throw new Error('the server closed the connection while starting');
    this.transport = kind;
    this.tools = tools;
    if (kind === 'http') this.http = transport as HttpTransport;
    this.warnings = list.dropped;
  }

  private async fail(gen: number, why: string, status: 'failed' | 'needs-sign-in' = 'failed'): Promise<void> {
    // The first reason wins (a close is followed by the failed connect it caused).
    if (gen !== this.generation || this.status === 'failed' || this.status === 'needs-sign-in') return;
    const tail = this.stderr.text();
    this.status = status;
    this.tools = [];
    this.error = tail ? `${why}\n${tail}` : why;
    this.deps.changed();
    await this.release();
  }

  /** Closes the client and ends the process (and anything it started). */
  private async release(): Promise<void> {
    const client = this.client;
    const marker = this.marker;
    const http = this.http;
    this.client = undefined;
    this.marker = undefined;
    this.http = undefined;
    this.closing = true;
    // The spec's clean end of a Streamable HTTP session (a server that does not do it
    // answers 405, which the SDK takes as done).
    if (http) await Promise.race([http.terminateSession().catch(() => {}), new Promise((r) => setTimeout(r, DELETE_WAIT_MS).unref())]);
    // The SDK's close waits up to 2 s for a stdio server to leave on its own before
    // SIGTERM; the reaper's marker sweep does not wait that long.
    await Promise.race([client?.close().catch(() => {}), new Promise((r) => setTimeout(r, 200).unref())]);
    if (marker) await this.deps.processEnded?.(marker);
  }

  private async discard(client: SdkClient, marker: string | undefined): Promise<void> {
    if (this.client === client) this.client = undefined;
    if (this.marker === marker) this.marker = undefined;
    await Promise.race([client.close().catch(() => {}), new Promise((r) => setTimeout(r, 200).unref())]);
    if (marker) await this.deps.processEnded?.(marker);
  }

  /** Stops the server for good (arbor is ending, or a restart is replacing it). */
  async close(): Promise<void> {
    this.generation++;
    const wasLive = this.status === 'ready' || this.status === 'starting';
    if (this.status !== 'disabled') this.status = 'stopped';
    await this.release();
    if (wasLive) this.deps.changed();
  }

  /** Tool calls on their way, each with the run that made it (who a form request is for). */
  private inFlight = new Map<symbol, string>();

  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    runId?: string,
  ): Promise<{ text: string; isError: boolean }> {
    const client = this.client;
    if (this.status !== 'ready' || !client) {
      throw new McpCallError(`MCP server '${this.config.name}' is ${this.status}${this.error ? `: ${this.error.split('\n')[0]}` : ''}`);
    }
    const secs = this.config.tool_timeout_secs;
    const call = Symbol(name);
    if (runId !== undefined) this.inFlight.set(call, runId);
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, { signal, timeout: secs * 1000 });
      return formatToolResult(result);
    } catch (err) {
      if (signal.aborted) throw err;
      const code = (err as { code?: unknown }).code;
      // -32001 is the SDK's RequestTimeout.
      if (code === -32001) throw new McpCallError(`MCP tool '${name}' on server '${this.config.name}' timed out after ${secs} s`);
      // A step-up (403 insufficient_scope) or an expired grant that could not be renewed.
      if (isSignInError(err) || (this.auth && httpStatusOf(err) === 403))
        throw new McpCallError(`MCP server '${this.config.name}' needs sign-in for this: run /mcp login ${this.config.name}`);
      throw new McpCallError(`MCP server '${this.config.name}': ${describeError(err)}`);
    } finally {
      this.inFlight.delete(call);
    }
  }
}

function headersOf(init: HeadersInit | undefined): Record<string, string> {
  if (!init) return {};
  return Object.fromEntries(new Headers(init).entries());
}

function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT' && e.path) return `command not found: ${e.path}`;
  return e instanceof Error ? e.message : String(err);
}
