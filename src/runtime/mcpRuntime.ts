// The runtime's side of MCP: the servers' state in the store (for /mcp and the status
// bar), the tools a turn or a child gets, and the wait at the start of a turn for servers
// still starting. The manager (src/mcp) owns the connections; the UI never sees it.
import type { AgentConfig, ArborConfig } from '../config/types.js';
import { t } from '../i18n/index.js';
import type { SignInOutcome, SignInView } from '../mcp/auth/login.js';
import type { ElicitationCompleteHandler, ElicitationHandler } from '../mcp/elicitation.js';
import type { McpManager } from '../mcp/manager.js';
import type { McpServerStatus } from '../model/mcp.js';
import { agentSeesTool, mcpToolsOf } from '../tools/mcpTools.js';
import type { Tool } from '../tools/types.js';
import type { RuntimeStore } from './store.js';

type Notice = (level: 'info' | 'warn' | 'error', text: string) => void;

export class McpRuntime {
  private readonly last = new Map<string, McpServerStatus>();
  private unsubscribe: (() => void) | undefined;
  private started = false;

  constructor(
    private readonly manager: McpManager | undefined,
    private readonly store: RuntimeStore,
    private readonly config: ArborConfig,
    private readonly notice: Notice,
  ) {}

  /** Publishes the servers' state and starts them in the background; later calls do
   * nothing. */
  start(): void {
    const manager = this.manager;
    if (!manager || manager.size === 0 || this.started) return;
    this.started = true;
    this.unsubscribe = manager.subscribe(() => this.publish());
    this.publish();
    manager.startAll();
  }

  private publish(): void {
    const views = this.manager!.views();
    for (const v of views) {
      const before = this.last.get(v.name);
      // A server that dies (or never comes up) is said once in the chat; /mcp has the rest.
      if (v.status === 'failed' && before !== 'failed') {
        this.notice('warn', t('runtime:mcp.failed', { name: v.name, error: (v.error ?? '').split('\n')[0] }));
      }
      if (v.status === 'needs-sign-in' && before !== 'needs-sign-in') this.notice('warn', t('runtime:mcp.needsSignIn', { name: v.name }));
      // Tools a start left out are said once, when the server becomes ready.
      if (v.status === 'ready' && before !== 'ready') {
        for (const warning of v.warnings ?? []) this.notice('warn', t('runtime:mcp.toolWarning', { name: v.name, warning }));
      }
      this.last.set(v.name, v.status);
    }
    this.store.setState({ mcpServers: views });
  }

  /** The enabled servers an agent sees. */
  serversOf(agent: Pick<AgentConfig, 'mcp_servers'>): string[] {
    return this.manager?.serversFor(agent.mcp_servers) ?? [];
  }

  /** Waits for the agent's servers still starting (each up to its startup timeout), then
   * returns the tools of those that are ready and the names of those that are not. */
  async prepareTurn(agent: AgentConfig, signal: AbortSignal): Promise<{ tools: Tool[]; unavailable: string[] }> {
    const manager = this.manager;
    if (!manager) return { tools: [], unavailable: [] };
    // A turn sent before the chat started them (it does right after its first frame).
    this.start();
    const servers = this.serversOf(agent);
    const starting = servers.filter((n) => manager.connection(n)?.status === 'starting');
    // Delegates this turn may reach take their MCP tools when they are built (an
    // independent one its own servers), so those servers are waited for too.
    await manager.waitFor(this.reachableServers(agent), signal);
    const unavailable = servers.filter((n) => manager.connection(n)?.status !== 'ready');
    // The user hears of a server this turn waited for in vain; a failed one was said when
    // it failed, and the status bar keeps counting it. The model is told every turn.
    const late = unavailable.filter((n) => starting.includes(n));
    if (late.length > 0 && !signal.aborted) this.notice('warn', t('runtime:mcp.unavailable', { names: late.join(', ') }));
    return { tools: mcpToolsOf(manager, servers), unavailable };
  }

  /** The servers of `agent` and of every agent its delegates lists reach. */
  private reachableServers(agent: AgentConfig): string[] {
    const seen = new Set<string>([agent.alias]);
    const queue = [agent];
    const servers = new Set<string>();
    while (queue.length > 0) {
      const next = queue.shift()!;
      for (const s of this.serversOf(next)) servers.add(s);
      for (const d of next.delegates) {
        const target = this.config.agents[d.agent];
        if (target && !seen.has(target.alias)) {
          seen.add(target.alias);
          queue.push(target);
        }
      }
    }
    return [...servers];
  }

  /** The ready tools an agent sees now (an independent delegate's own set). */
  toolsOf(alias: string): Tool[] {
    const agent = this.config.agents[alias];
    return this.manager && agent ? mcpToolsOf(this.manager, this.serversOf(agent)) : [];
  }

  /** Whether the agent `alias` may hold `toolName` (its mcp_servers admit the server). */
  agentSees(alias: string, toolName: string): boolean {
    return agentSeesTool(this.config.agents[alias]?.mcp_servers, toolName);
  }

  async restart(name: string): Promise<void> {
    const manager = this.manager;
    if (!manager?.connection(name)) {
      throw new Error(unknownServer(name, manager?.names() ?? []));
    }
    await manager.restart(name);
  }

  /** Waits for the servers `alias` (and its delegates) may use, and returns the ones that
   * want a sign-in (headless fails fast on them). */
  async needingSignIn(alias: string): Promise<string[]> {
    const manager = this.manager;
    const agent = this.config.agents[alias];
    if (!manager || !agent) return [];
    this.start();
    const names = this.reachableServers(agent);
    await manager.waitFor(names);
    return names.filter((n) => manager.connection(n)?.status === 'needs-sign-in');
  }

  /** Who answers servers' elicitation requests. */
  setElicitationHandler(handler: ElicitationHandler | undefined, onComplete?: ElicitationCompleteHandler): void {
    this.manager?.setElicitationHandler(handler);
    this.manager?.setElicitationCompleteHandler(onComplete);
  }

  private known(name: string): McpManager {
    const manager = this.manager;
    if (!manager?.connection(name)) {
      throw new Error(unknownServer(name, manager?.names() ?? []));
    }
    return manager;
  }

  /** The operator signs in to `name` (never a child: only the operator's commands call
   * this). */
  async login(name: string, view: SignInView, opts: { signal?: AbortSignal; browser: boolean }): Promise<SignInOutcome> {
    return this.known(name).login(name, view, opts);
  }

  async logout(name: string): Promise<void> {
    await this.known(name).logout(name);
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    await this.manager?.close();
  }
}

/** No such MCP server: the configured ones named, or, with none, how to add one. */
function unknownServer(name: string, known: readonly string[]): string {
  return known.length ? t('runtime:mcp.unknown', { name, known: known.join(', ') }) : t('runtime:mcp.unknownNone', { name });
}
