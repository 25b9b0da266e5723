// A folder's own settings (`./.arbor/config.toml`, `./.arbor/agents/*.md`) come with the
// repository, so they are someone else's until the user trusts the folder: they can start
// programs (MCP servers), send the user's keys elsewhere (a provider's base_url) and change
// tool policy. This reads them once, safely (config/safeRead.ts), says what they would do
// that runs code or sends secrets (the trust prompt lists it) and hashes both: the files
// and what they mean against the user's own config. A change to either asks again.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parse } from 'smol-toml';
import { agentFileNames, parseAgentFile, readAgentFile, type AgentFileText } from './agentFiles.js';
import { isTable, type RawTable } from './merge.js';
import { arborHome, projectConfigPath, userConfigPath } from './paths.js';
import { DEFAULT_BASE_URL, DEFAULT_KEY_ENV } from './providerDefaults.js';
import { readSmallFile, UnreadableFile } from './safeRead.js';
import type { ConfigLayerText } from './load.js';
import type { ProviderConfig } from './types.js';

/** A config file bigger than this is not one. */
const CONFIG_MAX_BYTES = 1024 * 1024;

/** What a folder's settings would do, as the trust prompt lists it. */
export type TrustAction =
  | { kind: 'mcpCommand'; server: string; command: string; args: string[] }
  | { kind: 'mcpUrl'; server: string; url: string; tokenEnv?: string }
  /** A secret an MCP server's sign-in sends elsewhere: an OAuth client secret to the
   * server's authorization server, or the user's ID token and the IdP client secret to
   * the identity provider a repository could point at its own host. */
  | { kind: 'mcpSecret'; server: string; env: string; idpUrl?: string }
  /** `[agents.x] runtime = "acp"`: a program arbor starts as an external agent. */
  | { kind: 'acpCommand'; agent: string; command: string; args: string[] }
  | {
      kind: 'provider';
      name: string;
      /** The user's config defines this provider: the folder changes it. */
      userDefined: boolean;
      /** Which of base_url, api_key_env, headers, type the folder sets. */
      changes: string[];
      baseUrl?: string;
      keyEnv?: string;
    }
  | { kind: 'agentFile'; file: string; name: string }
  /** Other tables and keys (risk profiles, agents, default_agent, delegation …). */
  | { kind: 'settings'; keys: string[] }
  | { kind: 'unreadable'; file: string; problem: string };

export interface ProjectSettings {
  /** The folder's real path: what trust is recorded for. */
  folder: string;
  config?: ConfigLayerText;
  agentFiles: AgentFileText[];
  /** Agent files skipped as not files or too big, each named. */
  warnings: string[];
  actions: TrustAction[];
  /** Of the files' bytes and of `actions`. */
  hash: string;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function tryParse(text: string): RawTable | string {
  try {
    return parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as RawTable;
  } catch (err) {
    return (err as Error).message.split('\n')[0];
  }
}

function tables(value: unknown): [string, RawTable][] {
  return isTable(value) ? Object.entries(value).filter((e): e is [string, RawTable] => isTable(e[1])) : [];
}

/** The user's own providers (`$ARBOR_HOME/config.toml`), raw; an unreadable file has none
 * here (loading it reports the problem). */
function userProviders(env: NodeJS.ProcessEnv): Map<string, RawTable> {
  const file = userConfigPath(env);
  if (!existsSync(file)) return new Map();
  let data: RawTable | string;
  try {
    data = tryParse(readSmallFile(file, CONFIG_MAX_BYTES));
  } catch {
    return new Map();
  }
  return typeof data === 'string' ? new Map() : new Map(tables(data.providers));
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function providerActions(project: RawTable, user: Map<string, RawTable>): TrustAction[] {
  return tables(project.providers).map(([name, table]) => {
    const mine = user.get(name);
    const merged = { ...(mine ?? {}), ...table };
    const type = str(merged.type) as ProviderConfig['type'] | undefined;
    const changes = ['type', 'base_url', 'api_key_env', 'headers'].filter((k) => k in table);
    return {
      kind: 'provider' as const,
      name,
      userDefined: mine !== undefined,
      changes,
      baseUrl: str(merged.base_url) ?? (type ? DEFAULT_BASE_URL[type] : undefined),
      keyEnv: str(merged.api_key_env) ?? (type ? DEFAULT_KEY_ENV[type] : undefined),
    };
  });
}

/** Where each secret variable of an MCP server's sign-in settings would be sent. */
function secretActions(server: string, entry: RawTable): TrustAction[] {
  const out: TrustAction[] = [];
  const oauth = isTable(entry.oauth) ? entry.oauth : undefined;
  const idp = isTable(entry.idp) ? entry.idp : undefined;
  const oauthSecret = str(oauth?.client_secret_env) ?? str(entry.client_secret_env);
  if (oauthSecret) out.push({ kind: 'mcpSecret', server, env: oauthSecret });
  const idpUrl = str(idp?.token_endpoint) ?? '';
  for (const key of ['id_token_env', 'client_secret_env']) {
    const env = str(idp?.[key]);
    if (env) out.push({ kind: 'mcpSecret', server, env, idpUrl });
  }
  return out;
}

function configActions(data: RawTable, user: Map<string, RawTable>): TrustAction[] {
  const out: TrustAction[] = [];
  for (const [server, entry] of tables(data.mcp_servers)) {
    const command = str(entry.command);
    const url = str(entry.url);
    if (command !== undefined) {
      const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
      out.push({ kind: 'mcpCommand', server, command, args });
    }
    if (url !== undefined)
      out.push({ kind: 'mcpUrl', server, url, ...(str(entry.bearer_token_env) ? { tokenEnv: str(entry.bearer_token_env) } : {}) });
    out.push(...secretActions(server, entry));
  }
  for (const [agent, entry] of tables(data.agents)) {
    const command = str(entry.command);
    if (entry.runtime === 'acp' && command !== undefined) {
      const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
      out.push({ kind: 'acpCommand', agent, command, args });
    }
  }
  out.push(...providerActions(data, user));
  const other = Object.keys(data).filter((k) => k !== 'mcp_servers' && k !== 'providers');
  if (other.length) out.push({ kind: 'settings', keys: other });
  return out;
}

/** The folder's settings, or undefined when it has none (or its `.arbor` is the user's own
 * `$ARBOR_HOME`, as when arbor starts in the home folder). */
export function readProjectSettings(cwd: string, env: NodeJS.ProcessEnv = process.env): ProjectSettings | undefined {
  const dotArbor = join(resolve(cwd), '.arbor');
  if (!existsSync(dotArbor) || realOr(dotArbor) === realOr(arborHome(env))) return undefined;
  const folder = realOr(cwd);
  const configPath = projectConfigPath(cwd);
  const agentsDir = join(dotArbor, 'agents');
  const hasConfig = existsSync(configPath);
  const names = existsSync(agentsDir) ? agentFileNames(agentsDir) : [];
  if (!hasConfig && names.length === 0) return undefined;

  const actions: TrustAction[] = [];
  const warnings: string[] = [];
  let config: ConfigLayerText | undefined;
  if (hasConfig) {
    try {
      config = { file: configPath, text: readSmallFile(configPath, CONFIG_MAX_BYTES) };
      const data = tryParse(config.text);
      if (typeof data === 'string') actions.push({ kind: 'unreadable', file: configPath, problem: data });
      else actions.push(...configActions(data, userProviders(env)));
    } catch (err) {
      const problem = err instanceof UnreadableFile ? err.code : (err as Error).message;
      actions.push({ kind: 'unreadable', file: configPath, problem });
    }
  }
  const agentFiles: AgentFileText[] = [];
  for (const name of names) {
    const file = join(agentsDir, name);
    const read = readAgentFile(file, 'project', warnings);
    if (!read) continue;
    agentFiles.push(read);
    let agent = basename(name, '.md');
    try {
      agent = parseAgentFile(read).name;
    } catch {
      // Listed by its file name; loading it reports the problem.
    }
    actions.push({ kind: 'agentFile', file, name: agent });
  }
  const hash = createHash('sha256');
  for (const f of [...(config ? [config] : []), ...agentFiles]) {
    hash.update(`${relative(folder, realOr(f.file))}\0${createHash('sha256').update(f.text).digest('hex')}\0`);
  }
  hash.update(JSON.stringify([actions, warnings]));
  return { folder, ...(config ? { config } : {}), agentFiles, warnings, actions, hash: hash.digest('hex') };
}
