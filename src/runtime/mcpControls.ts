// The session's MCP side as the runtime wires it: the servers (McpRuntime), the broker
// that answers their forms (elicitations; a URL opened only on the operator's choice),
// and the RuntimeApi controls over them (/mcp restart, login, logout).
import type { ArborConfig } from '../config/types.js';
import { openBrowser } from '../mcp/auth/browser.js';
import { browserEnv } from '../mcp/auth/login.js';
import type { McpManager } from '../mcp/manager.js';
import { ElicitationBroker } from './mcpElicitation.js';
import { McpRuntime } from './mcpRuntime.js';
import type { RuntimeApi } from './runtimeApi.js';
import type { RuntimeStore } from './store.js';

export interface McpControlsDeps {
  /** The configured servers, not yet started. */
  manager?: McpManager;
  store: RuntimeStore;
  config: ArborConfig;
  notice(level: 'info' | 'warn' | 'error', text: string): void;
  interactive: boolean;
  autoYes: boolean;
  env: NodeJS.ProcessEnv;
  /** A run's form started or stopped waiting for the operator (Supervisor.setAsking). */
  onWaiting(runId: string, waiting: boolean): void;
  /** Start the servers now (false: the caller does, through startMcp). */
  start: boolean;
  /** The agent the user talks to (whose servers a sign-in check waits for). */
  alias: string;
}

export type McpControls = Pick<RuntimeApi, 'mcpRestart' | 'mcpLogin' | 'mcpLogout' | 'answerElicitation' | 'openElicitationUrl'> & {
  mcpNeedingSignIn(): Promise<string[]>;
  startMcp(): void;
};

export function mcpControls(deps: McpControlsDeps): { mcp: McpRuntime; controls: McpControls } {
  const mcp = new McpRuntime(deps.manager, deps.store, deps.config, deps.notice);
  const elicitations = new ElicitationBroker(deps.store, {
    interactive: deps.interactive,
    autoYes: deps.autoYes,
    notice: deps.notice,
    onWaiting: deps.onWaiting,
    openUrl: (url) => openBrowser(url, browserEnv(deps.env)),
  });
  mcp.setElicitationHandler(elicitations.handler, elicitations.complete);
  if (deps.start) mcp.start();
  return {
    mcp,
    controls: {
      answerElicitation: (id, answer) => elicitations.answer(id, answer),
      openElicitationUrl: (id) => elicitations.openUrl(id),
      mcpRestart: (name) => mcp.restart(name),
      mcpLogin: (name, onUrl, signal) => mcp.login(name, { authorizationUrl: onUrl }, { signal, browser: true }),
      mcpLogout: (name) => mcp.logout(name),
      mcpNeedingSignIn: () => mcp.needingSignIn(deps.alias),
      startMcp: () => mcp.start(),
    },
  };
}
