// `[mcp_servers.<name>]`: one MCP server arbor starts (stdio: command, args, env, cwd) or
// connects to (Streamable HTTP, SSE for old servers: url, headers, bearer_token_env). The
// keys follow Codex's convention. Which transport an entry means is decided by command vs
// url, so those two are checked first and every key that belongs to the other transport
// is an error naming it, not a silently ignored setting.
import { z } from 'zod';
import { t } from '../i18n/index.js';
import { quote } from './errors.js';
import { boolean, envVarName, isHttpUrl, looseTable, namedTables, mcpDuration, number, string, stringList, stringMap } from './fields.js';

/** Server names become part of tool names (`mcp__<server>__<tool>`), which providers limit
 * to letters, digits, `_` and `-`; `__` is the separator, so a name may not hold it. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]+$/;

const STDIO_ONLY = ['args', 'env', 'cwd'] as const;
const HTTP_ONLY = ['headers', 'bearer_token_env'] as const;

const mcpIdentity = looseTable({ command: string({ nonEmpty: true }).optional(), url: string({ nonEmpty: true }).optional() }).check(
  (ctx) => {
    const e = ctx.value;
    const problem = (path: string[], message: string): void => void ctx.issues.push({ code: 'custom', input: e, path, message });
    if (e.command !== undefined && e.url !== undefined) return problem(['url'], t('config:errors.mcpBoth'));
    if (e.command === undefined && e.url === undefined) return problem([], t('config:errors.mcpNeither'));
    if (e.url !== undefined && !isHttpUrl(e.url)) return problem(['url'], t('config:errors.badUrl', { value: quote(e.url) }));
    const other = e.url !== undefined ? STDIO_ONLY.find((k) => e[k] !== undefined) : HTTP_ONLY.find((k) => e[k] !== undefined);
    if (other) problem([other], t(e.url !== undefined ? 'config:errors.mcpStdioOnly' : 'config:errors.mcpHttpOnly', { key: other }));
  },
);

const mcpServerSchema = mcpIdentity.pipe(
  z.object({
    command: string({ nonEmpty: true }).optional(),
    args: stringList().default(() => []),
    env: stringMap().optional(),
    cwd: string({ nonEmpty: true }).optional(),
    url: string({ nonEmpty: true }).optional(),
    headers: stringMap().optional(),
    /** The NAME of the variable holding the token; the value is read at connect time. */
    bearer_token_env: envVarName().optional(),
    enabled: boolean().default(true),
    startup_timeout_secs: number(mcpDuration).default(10),
    tool_timeout_secs: number(mcpDuration).default(60),
  }),
);

export const mcpServersSchema = namedTables(mcpServerSchema).check((ctx) => {
  for (const name of Object.keys(ctx.value)) {
    if (MCP_SERVER_NAME.test(name) && !name.includes('__')) continue;
    ctx.issues.push({ code: 'custom', input: name, path: [name], message: t('config:errors.mcpBadName', { name: quote(name) }) });
  }
});

export type McpServerFields = z.output<typeof mcpServerSchema>;
