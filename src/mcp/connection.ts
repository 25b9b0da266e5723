// One MCP server: its process or HTTP session, its tool list and its state. Built on the
// official SDK's Client and transports, loaded on first use so the chat's start never
// waits for them. A stdio server gets the environment the manager builds (secrets removed,
// a reaper marker added, the entry's own env on top); a url server gets the entry's
// headers and, when bearer_token_env is set, an Authorization header read from that
// variable at connect time (the value is never logged, shown or kept in a view).
import { resolve as resolvePath } from 'node:path';
import type { McpServerConfig } from '../config/types.js';
import type { McpServerStatus, McpTransportKind } from '../model/mcp.js';
import { registerSecret } from '../persistence/redact.js';
import { formatToolResult } from './results.js';
import { StderrTail } from './stderrTail.js';
import { startTimer, type Timer } from '../timers/timer.js';

type SdkClient = import('@modelcontextprotocol/sdk/client/index.js').Client;
type SdkTransport = import('@modelcontextprotocol/sdk/shared/transport.js').Transport;

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
}

/** Thrown for a call the server could not take (not started, gone, timed out). */
export class McpCallError extends Error {}

const CLIENT_INFO = { name: 'arbor', version: '1' };

export class McpConnection {
  status: McpServerStatus = 'stopped';
  transport: McpTransportKind;
  tools: McpToolInfo[] = [];
  /** Tools of the last start that were left out, one line each naming the tool and why. */
  warnings: string[] = [];
  error: string | undefined;
  private client: SdkClient | undefined;
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
      const why = outcome === 'timeout' ? `did not start within ${secs} s` : describeError(outcome);
      await this.fail(gen, why);
    });
    return this.starting;
  }

  /** Resolves when the current start has finished (ready or failed). */
  whenSettled(): Promise<void> {
    return this.starting ?? Promise.resolve();
  }

  private async connect(gen: number): Promise<void> {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    if (this.config.url !== undefined) {
      const url = new URL(this.config.url);
      const headers = this.httpHeaders();
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      try {
        await this.open(gen, new Client(CLIENT_INFO), new StreamableHTTPClientTransport(url, { requestInit: { headers } }), 'http');
        return;
      } catch (err) {
        if (gen !== this.generation) throw err;
        // Servers older than the 2025-03-26 protocol speak only HTTP+SSE: the spec's
        // backwards-compatibility rule is to try that after a failed POST.
        const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
        const withHeaders: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...headersOf(init?.headers), ...headers } });
        const sse = new SSEClientTransport(url, { requestInit: { headers }, eventSourceInit: { fetch: withHeaders } });
        try {
          await this.open(gen, new Client(CLIENT_INFO), sse, 'sse');
        } catch {
          throw err;
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
    await this.open(gen, new Client(CLIENT_INFO), transport, 'stdio', marker);
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
    client.onclose = () => {
      if (gen !== this.generation || this.closing) return;
      void this.fail(gen, this.status === 'starting' ? 'the server closed the connection while starting' : 'the server exited');
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
    this.transport = kind;
    this.tools = tools;
    this.warnings = list.dropped;
  }

  private async fail(gen: number, why: string): Promise<void> {
    // The first reason wins (a close is followed by the failed connect it caused).
    if (gen !== this.generation || this.status === 'failed') return;
    const tail = this.stderr.text();
    this.status = 'failed';
    this.tools = [];
    this.error = tail ? `${why}\n${tail}` : why;
    this.deps.changed();
    await this.release();
  }

  /** Closes the client and ends the process (and anything it started). */
  private async release(): Promise<void> {
    const client = this.client;
    const marker = this.marker;
    this.client = undefined;
    this.marker = undefined;
    this.closing = true;
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

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<{ text: string; isError: boolean }> {
    const client = this.client;
    if (this.status !== 'ready' || !client) {
      throw new McpCallError(`MCP server '${this.config.name}' is ${this.status}${this.error ? `: ${this.error.split('\n')[0]}` : ''}`);
    }
    const secs = this.config.tool_timeout_secs;
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, { signal, timeout: secs * 1000 });
      return formatToolResult(result);
    } catch (err) {
      if (signal.aborted) throw err;
      const code = (err as { code?: unknown }).code;
      // -32001 is the SDK's RequestTimeout.
      if (code === -32001) throw new McpCallError(`MCP tool '${name}' on server '${this.config.name}' timed out after ${secs} s`);
      throw new McpCallError(`MCP server '${this.config.name}': ${describeError(err)}`);
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
