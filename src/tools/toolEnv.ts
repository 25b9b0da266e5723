// The environment a tool subprocess runs with (the shell tool today, MCP servers later):
// arbor's own environment minus every secret it knows of, so `echo $OPENAI_API_KEY` in a
// tool call cannot hand a provider key to the model. A risk profile may keep named ones
// (shell_env_passthrough); under bounded delegation a variable is kept only if the caller's
// profile and every ceiling above it pass it through.
import { randomUUID } from 'node:crypto';
import type { ArborConfig, RiskProfile } from '../config/types.js';
import { ENV_PROVIDERS } from '../config/defaults.js';
import { SECRET_ENV_NAME } from '../persistence/redact.js';

/** Set in every tool subprocess's environment to a value unique to that tool call, so the
 * reaper can find every process the call started, even ones that left its process group. */
export const TOOL_RUN_MARKER = 'ARBOR_TOOL_RUN';

/** The key variables the built-in providers read when the config names none. */
const DEFAULT_KEY_VARS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'];

export interface ToolEnvOptions {
  config: Pick<ArborConfig, 'providers'> & Partial<Pick<ArborConfig, 'mcp_servers'>>;
  /** Profiles whose shell_env_passthrough must all name a secret variable to keep it. */
  profiles: Array<Pick<RiskProfile, 'shell_env_passthrough'>>;
  /** More secret variable names (e.g. an MCP server's bearer variable). */
  extraSecretNames?: string[];
  /** Defaults to process.env. */
  base?: NodeJS.ProcessEnv;
}

/** Names of every variable treated as secret in `base`: each provider's api_key_env, each
 * MCP server's bearer_token_env, client secrets and IdP ID token variable (whatever it is called: a shell must not read a server's
 * token either), the auto-detected key variables, the extra names, and any name ending in
 * _KEY/_TOKEN/_SECRET. */
export function secretEnvNames(opts: Pick<ToolEnvOptions, 'config' | 'extraSecretNames' | 'base'>): Set<string> {
  const base = opts.base ?? process.env;
  const names = new Set<string>([...DEFAULT_KEY_VARS, ...ENV_PROVIDERS.map((p) => p.envVar), ...(opts.extraSecretNames ?? [])]);
  for (const provider of Object.values(opts.config.providers ?? {})) if (provider.api_key_env) names.add(provider.api_key_env);
  for (const server of Object.values(opts.config.mcp_servers ?? {})) {
    if (server.bearer_token_env) names.add(server.bearer_token_env);
    if (server.oauth?.client_secret_env) names.add(server.oauth.client_secret_env);
    if (server.idp?.client_secret_env) names.add(server.idp.client_secret_env);
    if (server.idp?.id_token_env) names.add(server.idp.id_token_env);
  }
  for (const name of Object.keys(base)) if (SECRET_ENV_NAME.test(name)) names.add(name);
  return names;
}

/** The full environment for one tool subprocess (pass it with extendEnv: false), tagged
 * with a fresh TOOL_RUN_MARKER value, returned as `marker`. */
export function toolSubprocessEnv(opts: ToolEnvOptions): { env: Record<string, string>; marker: string } {
  const base = opts.base ?? process.env;
  const secrets = secretEnvNames(opts);
  // No profile means nothing is passed through.
  const keep = (name: string) => opts.profiles.length > 0 && opts.profiles.every((p) => (p.shell_env_passthrough ?? []).includes(name));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (secrets.has(name) && !keep(name)) continue;
    env[name] = value;
  }
  const marker = randomUUID();
  env[TOOL_RUN_MARKER] = marker;
  return { env, marker };
}
