// /mcp: the configured MCP servers (status, transport, tool count, last error) and each
// one's tools; `/mcp restart <name>` starts a server again. Reads the store's mcpServers
// (already neutralised by the runtime) and acts through RuntimeApi.mcpRestart.
import { t } from '../../i18n/index.js';
import type { McpServerView } from '../../model/mcp.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import type { CommandContext, SlashCommand } from './registry.js';

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
  if (s.error) {
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

async function restart(name: string, ctx: CommandContext): Promise<void> {
  const runtime = ctx.runtime;
  if (!serversOf(runtime).some((s) => s.name === name)) {
    const known =
      serversOf(runtime)
        .map((s) => s.name)
        .join(', ') || '-';
    ctx.print(t('ui:commands.mcp.unknown', { name, known }), 'error');
    return;
  }
  ctx.print(t('ui:commands.mcp.restarting', { name }));
  await runtime.mcpRestart!(name);
  const now = serversOf(runtime).find((s) => s.name === name);
  if (now?.status === 'ready') ctx.print(t('ui:commands.mcp.restarted', { name, count: now.tools.length }));
  else ctx.print(t('ui:commands.mcp.restartFailed', { name, error: (now?.error ?? now?.status ?? '').split('\n')[0] }), 'error');
}

export const mcpCommand: SlashCommand = {
  name: 'mcp',
  summary: 'ui:commands.mcp.summary',
  usage: '/mcp [restart <server>]',
  maxArgs: 2,
  completeArgs: (args, _partial, { runtime }) => {
    if (args.length === 0) return ['restart'];
    if (args.length === 1 && args[0] === 'restart') return serversOf(runtime).map((s) => s.name);
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
    if (args[0] !== 'restart' || args.length !== 2 || !ctx.runtime.mcpRestart) {
      ctx.print(t('ui:commands.badArgs', { name: 'mcp', usage: '/mcp [restart <server>]' }), 'error');
      return;
    }
    await restart(args[1], ctx);
  },
};
