// Turns the merged raw config into the typed, fully-defaulted ArborConfig, or throws a
// ConfigError at the first problem. The shape, types, ranges and defaults are the schema's
// (schema.ts); what it cannot see — references between agents, providers and profiles and
// the choice of the default agent — is checked in validateAgents.ts.
import type { z } from 'zod';
import type { ArborConfig, McpServerConfig, ProviderConfig, RiskProfile, RuntimeProfile, UiConfig } from './types.js';
import { semanticError } from './errors.js';
import { isTable, type Origins, type RawTable } from './merge.js';
import {
  DEFAULT_PROFILE,
  OFFLINE_MODEL,
  OFFLINE_PROVIDER,
  defaultRiskProfile,
  defaultRuntimeProfile,
  defaultUi,
  runtimeProfileNamed,
} from './defaults.js';
import { configFileSchema, type ConfigFile } from './schema.js';
import { Problems } from './problems.js';
import { validateAgents } from './validateAgents.js';
import { checkProfileSubagentApprovals } from './subagentApprovals.js';

/** The one place a schema issue becomes a config error: `<file>: <key path>: <problem>`.
 * The schema's fields wrote the problem text already (fields.ts). */
export function issueToConfigError(issue: z.core.$ZodIssue, origins: Origins) {
  const path = issue.path.map((seg) => (typeof seg === 'symbol' ? String(seg) : seg));
  return semanticError(issue.message, path, origins.fileFor(path));
}

function parseFile(root: RawTable, origins: Origins): ConfigFile {
  const names = (key: string) => (isTable(root[key]) ? Object.keys(root[key]) : []);
  const parsed = configFileSchema({ providers: names('providers'), agents: names('agents'), mcpServers: names('mcp_servers') }).safeParse(
    root,
  );
  if (!parsed.success) throw issueToConfigError(parsed.error.issues[0], origins);
  return parsed.data;
}

/** The configured providers, plus the built-in offline one when an agent names it and no
 * `[providers.offline]` table exists (a user's table of that name wins). */
function providersOf(file: ConfigFile): Record<string, ProviderConfig> {
  const providers: Record<string, ProviderConfig> = {};
  for (const [name, p] of Object.entries(file.providers)) {
    providers[name] = { ...p, name, model: p.model ?? OFFLINE_MODEL, headers: p.headers ?? {} };
  }
  const named = Object.values(file.agents).some((a) => a.provider === OFFLINE_PROVIDER);
  if (named && !providers[OFFLINE_PROVIDER]) {
    providers[OFFLINE_PROVIDER] = { name: OFFLINE_PROVIDER, type: 'offline', model: OFFLINE_MODEL, headers: {} };
  }
  return providers;
}

function mcpServersOf(servers: NonNullable<ConfigFile['mcp_servers']>): Record<string, McpServerConfig> {
  return Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { ...s, name }]));
}

/** Validates the merged config. `builtinOnly`: built-in agents kept beside a file's own
 * agents, which do not take part in choosing the default agent. Warnings (e.g. agents on unconfigured profiles) are
 * returned; the first error is thrown as a ConfigError. */
export function validateConfig(
  root: RawTable,
  origins: Origins,
  env: NodeJS.ProcessEnv,
  builtinOnly: readonly string[] = [],
): { config: ArborConfig; warnings: string[] } {
  const file = parseFile(root, origins);
  const problems = new Problems(origins);
  const providers = providersOf(file);

  // "default" always exists; a user table of that name only overrides the fields it sets.
  const risk_profiles: Record<string, RiskProfile> = { [DEFAULT_PROFILE]: defaultRiskProfile(DEFAULT_PROFILE) };
  for (const [name, p] of Object.entries(file.risk_profiles)) risk_profiles[name] = { name, ...p };
  const runtime_profiles: Record<string, RuntimeProfile> = { [DEFAULT_PROFILE]: defaultRuntimeProfile(DEFAULT_PROFILE) };
  for (const [name, p] of Object.entries(file.runtime_profiles)) runtime_profiles[name] = runtimeProfileNamed(name, p);

  checkProfileSubagentApprovals(problems, file.delegation, file.risk_profiles);
  const ui: UiConfig = { language: file.ui.language ?? defaultUi(env).language };
  if (file.ui.show_reasoning) ui.show_reasoning = file.ui.show_reasoning;
  const { agents, default_agent } = validateAgents(problems, file, { providers, risk_profiles, runtime_profiles }, builtinOnly);

  return {
    config: {
      default_agent,
      providers,
      agents,
      risk_profiles,
      runtime_profiles,
      delegation: file.delegation,
      ui,
      // `[keys]` overrides the key table; absent (or empty), the defaults apply.
      ...(file.keys && Object.keys(file.keys).length > 0 ? { keys: file.keys } : {}),
      ...(file.context ? { context: file.context } : {}),
      ...(file.mcp_servers && Object.keys(file.mcp_servers).length > 0 ? { mcp_servers: mcpServersOf(file.mcp_servers) } : {}),
    },
    warnings: problems.warnings,
  };
}
