// Every configured MCP server, one connection each, shared by the whole run tree: the
// root and every child call the same process. Servers start in the background when the
// manager starts (the chat does not wait); a turn waits only for the servers its agent
// sees, each at most until its startup timeout, and goes on without the ones not ready.
import type { McpServerConfig } from '../config/types.js';
import type { McpServerView } from '../model/mcp.js';
import { neutralize } from '../text/untrusted.js';
import { signIn, type SignInOutcome, type SignInView } from './auth/login.js';
import { authStoreFor } from './auth/select.js';
import { McpConnection, type McpConnectionDeps } from './connection.js';
import type { ElicitationCompleteHandler, ElicitationHandler } from './elicitation.js';
import { assignToolNames } from './names.js';

export type McpManagerDeps = Omit<McpConnectionDeps, 'changed' | 'elicit' | 'elicitComplete'>;

export class McpManager {
  private readonly servers = new Map<string, McpConnection>();
  private readonly listeners = new Set<() => void>();
  private closed = false;
  private elicitHandler: ElicitationHandler | undefined;
  private completeHandler: ElicitationCompleteHandler | undefined;

  constructor(
    configs: McpServerConfig[],
    private readonly deps: McpManagerDeps,
  ) {
    const elicit: ElicitationHandler = (req, signal) =>
      this.elicitHandler ? this.elicitHandler(req, signal) : Promise.resolve({ action: 'decline' });
    const elicitComplete: ElicitationCompleteHandler = (server, id) => this.completeHandler?.(server, id);
    for (const config of configs) {
      this.servers.set(config.name, new McpConnection(config, { ...deps, changed: () => this.emit(), elicit, elicitComplete }));
    }
  }

  /** Who answers servers' elicitation requests (the runtime: the operator or headless
   * policy); until set, they are declined. */
  setElicitationHandler(handler: ElicitationHandler | undefined): void {
    this.elicitHandler = handler;
  }

  /** Who hears that a URL-mode request's step finished (the runtime's queue). */
  setElicitationCompleteHandler(handler: ElicitationCompleteHandler | undefined): void {
    this.completeHandler = handler;
  }

  /** `name` if it keeps a grant in its AuthStore; `forLogin` also needs a browser sign-in
   * (cross_app_access keeps its exchanged tokens there, but nobody signs in). */
  private oauthServer(name: string, forLogin = true): McpConnection {
    const conn = this.servers.get(name);
    if (!conn) throw new Error(`unknown MCP server '${name}' (known: ${this.names().join(', ') || 'none'})`);
    if (conn.config.url === undefined) throw new Error(`MCP server '${name}' is started with a command: it has no sign-in`);
    if (conn.config.bearer_token_env !== undefined || conn.config.auth === 'client_credentials' || this.deps.authDir === undefined) {
      throw new Error(`MCP server '${name}' signs in without a browser (bearer_token_env or client_credentials)`);
    }
    if (forLogin && conn.config.auth === 'cross_app_access') {
      throw new Error(`MCP server '${name}' signs in through its identity provider (cross_app_access), not in a browser`);
    }
    return conn;
  }

  /** Signs the operator in to `name` (the browser step through `view`), then starts it
   * with the new grant. Only the operator's commands call this, never a child. */
  async login(name: string, view: SignInView, opts: { signal?: AbortSignal; browser: boolean }): Promise<SignInOutcome> {
    const conn = this.oauthServer(name);
    await conn.close();
    try {
      return await signIn({ config: conn.config, store: authStoreFor(conn.config, this.deps.authDir!), env: this.deps.env, view, ...opts });
    } finally {
      if (!this.closed && conn.config.enabled) await conn.start();
    }
  }

  /** Forgets `name`'s grant (its session ended first), then starts it without one. */
  async logout(name: string): Promise<void> {
    const conn = this.oauthServer(name, false);
    await conn.close();
    authStoreFor(conn.config, this.deps.authDir!).clear();
    if (!this.closed && conn.config.enabled) await conn.start();
  }

  /** Starts every enabled server; returns at once. */
  startAll(): void {
    for (const conn of this.servers.values()) if (conn.config.enabled) void conn.start();
  }

  get size(): number {
    return this.servers.size;
  }

  names(): string[] {
    return [...this.servers.keys()];
  }

  connection(name: string): McpConnection | undefined {
    return this.servers.get(name);
  }

  /** The enabled servers an agent sees: its `mcp_servers`, or all of them when absent. */
  serversFor(agentServers: readonly string[] | undefined): string[] {
    const names = agentServers ?? this.names();
    return names.filter((n) => this.servers.get(n)?.config.enabled);
  }

  /** Waits for `names` still starting (each bounded by its own startup timeout, since a
   * start fails at that timeout) or until `signal` aborts. Returns the ones not ready. */
  async waitFor(names: readonly string[], signal?: AbortSignal): Promise<string[]> {
    const pending = names.map((n) => this.servers.get(n)).filter((c): c is McpConnection => c?.status === 'starting');
    if (pending.length > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          signal?.removeEventListener('abort', done);
          resolve();
        };
        signal?.addEventListener('abort', done, { once: true });
        void Promise.all(pending.map((c) => c.whenSettled())).then(done);
      });
    }
    return names.filter((n) => this.servers.get(n)?.status !== 'ready');
  }

  /** Restarts one server (a failed one, or a live one the user wants fresh). */
  async restart(name: string): Promise<void> {
    const conn = this.servers.get(name);
    if (!conn) throw new Error(`unknown MCP server '${name}' (known: ${this.names().join(', ') || 'none'})`);
    if (this.closed) return;
    await conn.close();
    // arbor may have begun ending meanwhile: nothing starts after close().
    if (this.closed) return;
    await conn.start();
  }

  /** What /mcp and the status bar show: every string a server sent, neutralised. */
  views(): McpServerView[] {
    return [...this.servers.values()].map((c) => this.view(c));
  }

  private view(c: McpConnection): McpServerView {
    // The names the model sees (mcpToolsOf assigns the same), and which had to change.
    const { names, renamed } = assignToolNames(
      c.config.name,
      c.tools.map((t) => t.name),
    );
    const warnings = [...c.warnings, ...renamed];
    return {
      name: c.config.name,
      status: c.status,
      transport: c.transport,
      tools: c.tools.map((t, i) => ({
        name: names[i]!,
        serverTool: neutralize(t.name),
        description: neutralize(t.description),
        readOnly: t.readOnly,
      })),
      ...(c.error !== undefined ? { error: neutralize(c.error) } : {}),
      ...(warnings.length > 0 ? { warnings: warnings.map((w) => neutralize(w)) } : {}),
    };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }

  /** Ends every server; safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.servers.values()].map((c) => c.close()));
    this.listeners.clear();
  }
}
