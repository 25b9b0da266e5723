// `--agent <alias>`: the agent the user talks to for this run, in place of default_agent. It
// must be one that could be the default: defined, enabled, its profiles configured.
import { t } from '../i18n/index.js';
import { knownList, quote } from './errors.js';
import type { LoadedConfig } from './types.js';

export class RootAgentError extends Error {}

/** The loaded config with `alias` as its root agent; throws RootAgentError naming the known
 * agents when it cannot be. */
export function withRootAgent(loaded: LoadedConfig, alias: string): LoadedConfig {
  const { config } = loaded;
  const agent = Object.hasOwn(config.agents, alias) ? config.agents[alias] : undefined;
  const usable = Object.values(config.agents)
    .filter((a) => a.enabled)
    .map((a) => a.alias);
  if (!agent) throw new RootAgentError(t('agentFiles:cli.unknownAgent', { name: quote(alias), known: knownList(usable) }));
  if (!agent.enabled) throw new RootAgentError(t('agentFiles:cli.disabledAgent', { name: quote(alias), known: knownList(usable) }));
  for (const [key, profiles] of [
    ['risk_profile', config.risk_profiles],
    ['runtime_profile', config.runtime_profiles],
  ] as const) {
    const name = agent[key];
    if (!Object.hasOwn(profiles, name)) {
      throw new RootAgentError(
        t('agentFiles:cli.missingProfile', { name: quote(alias), key, profile: quote(name), known: knownList(Object.keys(profiles)) }),
      );
    }
  }
  return { ...loaded, config: { ...config, default_agent: alias } };
}
