// What `/agents list` shows: every defined agent, where its definition came from (built in,
// a TOML file, an agent file), its provider and the model it asks for.
import type { LoadedConfig } from './types.js';

export interface AgentDefinition {
  alias: string;
  /** The file that defined it (config.toml or an agent file); absent: built in. */
  source?: string;
  description?: string;
  provider: string;
  /** "<provider type>/<model>" with the agent's own model when it names one. */
  model: string;
  enabled: boolean;
  /** The agent the user talks to (default_agent or --agent). */
  root: boolean;
}

export function agentDefinitions(loaded: LoadedConfig): AgentDefinition[] {
  const { config } = loaded;
  const agents = Object.values(config.agents).sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
  return agents.map((agent) => {
    const pc = config.providers[agent.provider];
    const source = loaded.agentSources?.[agent.alias];
    return {
      alias: agent.alias,
      ...(source !== undefined ? { source } : {}),
      ...(agent.description !== undefined ? { description: agent.description } : {}),
      provider: agent.provider,
      // Spelled as providerLabel does (providers/label.ts, a layer above this one).
      model: pc ? `${pc.type}/${agent.model ?? pc.model}` : (agent.model ?? ''),
      enabled: agent.enabled,
      root: agent.alias === config.default_agent,
    };
  });
}
