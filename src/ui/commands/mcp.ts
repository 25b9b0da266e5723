// /mcp: the configured MCP servers (status, transport, tool count, last error) and each
// one's tools; `/mcp restart <name>` starts a server again, `/mcp login <name>` signs in
// (the URL in a pane, Esc cancels), `/mcp logout <name>` forgets the grant. Reads the
// store's mcpServers (already neutralised by the runtime) and acts through RuntimeApi.
import { t } from '../../i18n/index.js';
import type { McpServerView } from '../../model/mcp.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { SignInState, signInPane } from './mcpSignInPane.js';
import type { CommandContext, SlashCommand } from './registry.js';

const USAGE = '/mcp [restart|login|logout <server>]';
const ACTIONS = ['restart', 'login', 'logout'] as const;

const DESCRIPTION_MAX = 80;

function oneLine(text: string, max = DESCRIPTION_MAX): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const serversOf = (runtime: RuntimeApi): McpServerView[] => runtime.store.getState().mcpServers ?? [];

function describeServer(s: McpServerView): string[] {
  const lines = [
    t('ui:commands.mcp.server', {
      name: s.name,
      status: t(`ui:commands.mcp.status.${s.status}`),
      transport: s.transport,
      count: s.tools.length,
    }),
  ];
  if (s.status === 'needs-sign-in') lines.push(t('ui:commands.mcp.signInHint', { name: s.name }));
  else if (s.error) {
    const [first, ...tail] = s.error.split('\n');
    lines.push(t('ui:commands.mcp.error', { error: first }));
    for (const line of tail) lines.push(`      ${line}`);
  }
  for (const warning of s.warnings ?? []) lines.push(t('ui:commands.mcp.warning', { warning }));
  for (const tool of s.tools) {
    lines.push(
      `    ${tool.name}${tool.readOnly ? ` ${t('ui:commands.mcp.readOnly')}` : ''}${tool.description ? `  ${oneLine(tool.description)}` : ''}`,
    );
  }
  return lines;
}

function known(name: string, ctx: CommandContext): boolean {
  const servers = serversOf(ctx.runtime);
  if (servers.some((s) => s.name === name)) return true;
  const names = servers.map((s) => s.name).join(', ');
  ctx.print(names ? t('ui:commands.mcp.unknown', { name, known: names }) : t('ui:commands.mcp.unknownNone', { name }), 'error');
  return false;
}

async function login(name: string, ctx: CommandContext): Promise<void> {
  const state = new SignInState();
  ctx.openPane(signInPane(name, state));
  try {
    const outcome = await ctx.runtime.mcpLogin(name, (url, opened) => state.setUrl(url, opened), state.abort.signal);
    const now = serversOf(ctx.runtime).find((s) => s.name === name);
    if (outcome === 'not-needed') ctx.print(t('ui:commands.mcp.noSignInNeeded', { name }));
    else if (now?.status === 'ready') ctx.print(t('ui:commands.mcp.signedIn', { name, count: now.tools.length }));
    else ctx.print(t('ui:commands.mcp.signInFailed', { name, error: (now?.error ?? now?.status ?? '').split('\n')[0] }), 'error');
  } catch (err) {
    const cancelled = state.abort.signal.aborted;
    ctx.print(
      cancelled
        ? t('ui:commands.mcp.signInCancelled', { name })
        : t('ui:commands.mcp.signInFailed', { name, error: (err as Error).message }),
      'error',
    );
  } finally {
    ctx.closePane();
  }
}

async function logout(name: string, ctx: CommandContext): Promise<void> {
  try {
    await ctx.runtime.mcpLogout(name);
    ctx.print(t('ui:commands.mcp.loggedOut', { name }));
  } catch (err) {
    ctx.print(t('ui:commands.mcp.signInFailed', { name, error: (err as Error).message }), 'error');
  }
}

async function restart(name: string, ctx: CommandContext): Promise<void> {
  const runtime = ctx.runtime;
  ctx.print(t('ui:commands.mcp.restarting', { name }));
  await runtime.mcpRestart(name);
  const now = serversOf(runtime).find((s) => s.name === name);
  if (now?.status === 'ready') ctx.print(t('ui:commands.mcp.restarted', { name, count: now.tools.length }));
  else ctx.print(t('ui:commands.mcp.restartFailed', { name, error: (now?.error ?? now?.status ?? '').split('\n')[0] }), 'error');
}

export const mcpCommand: SlashCommand = {
  name: 'mcp',
  summary: 'ui:commands.mcp.summary',
  usage: USAGE,
  maxArgs: 2,
  completeArgs: (args, _partial, { runtime }) => {
    if (args.length === 0) return [...ACTIONS];
    if (args.length === 1 && (ACTIONS as readonly string[]).includes(args[0])) return serversOf(runtime).map((s) => s.name);
    return [];
  },
  async run(args, ctx) {
    const servers = serversOf(ctx.runtime);
    if (args.length === 0) {
      if (servers.length === 0) {
        ctx.print(t('ui:commands.mcp.none'));
        return;
      }
      ctx.print([t('ui:commands.mcp.title'), ...servers.flatMap(describeServer)].join('\n'));
      return;
    }
    const action = args[0];
    const supported = action === 'restart' || action === 'login' || action === 'logout';
    if (args.length !== 2 || !supported) {
      ctx.print(t('ui:commands.badArgs', { name: 'mcp', usage: USAGE }), 'error');
      return;
    }
    if (!known(args[1], ctx)) return;
    if (action === 'login') await login(args[1], ctx);
    else if (action === 'logout') await logout(args[1], ctx);
    else await restart(args[1], ctx);
  },
};
