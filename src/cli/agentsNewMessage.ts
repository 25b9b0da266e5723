// What `arbor agents new <name>` says once the file is written: "as a delegate" only when
// the default agent can reach the new agent under the config that applies here; else what
// to add. The starter setup's main is on its own risk profile with an explicit delegates
// list, so a new agent on the default profile is not reachable from it.
import { loadConfig } from '../config/load.js';
import type { ArborConfig } from '../config/types.js';
import { t } from '../i18n/index.js';
import { reachableRoster } from '../tools/delegate/gating.js';

function reachableFromRoot(config: ArborConfig, name: string): boolean {
  const root = config.agents[config.default_agent];
  if (!root) return false;
  const allowed = config.risk_profiles[root.risk_profile]?.delegation_policy.mode === 'allow';
  return allowed && reachableRoster(config, root.alias).some((r) => r.alias === name);
}

export function agentCreatedMessage(cwd: string, name: string, path: string, env: NodeJS.ProcessEnv = process.env): string {
  let config: ArborConfig;
  try {
    config = loadConfig({ cwd, env }).config;
  } catch {
    // The config does not load (the new file is fine; something else is not): no claim.
    return t('agentFiles:new.createdPlain', { path, name });
  }
  const root = config.default_agent;
  if (reachableFromRoot(config, name)) return t('agentFiles:new.created', { path, name, root });
  return t('agentFiles:new.createdUnreachable', { path, name, root });
}
