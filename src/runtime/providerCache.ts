// The providers a runtime talks through, built once per agent's provider and model: every
// run of an agent (the root's turns, its children) shares one provider object, so its
// connection pool and retry state are shared too.
import type { AgentConfig, ArborConfig, ProviderConfig } from '../config/types.js';
import { createProvider, providerLabel } from '../providers/createProvider.js';
import type { ModelProvider } from '../providers/types.js';
import { agentProviderConfig, agentProviderKey } from './agentModel.js';
import type { ResolvedProvider } from './supervisorTypes.js';

export class ProviderCache {
  private readonly resolved = new Map<string, ResolvedProvider>();

  /** `factory` overrides provider construction (tests); absent, `createProvider` with `env`. */
  constructor(
    private readonly config: ArborConfig,
    private readonly env: NodeJS.ProcessEnv,
    private readonly factory?: (config: ProviderConfig) => ModelProvider,
  ) {}

  /** A new provider for a config entry (not cached: /model's picks are built here too). */
  readonly build = (pc: ProviderConfig): ResolvedProvider => {
    const provider = this.factory ? this.factory(pc) : createProvider(pc, this.env);
    return { provider, config: pc, label: providerLabel(pc) };
  };

  /** The agent's provider with its own model and temperature; throws naming an unknown one. */
  readonly for = (agent: AgentConfig): ResolvedProvider => {
    const key = agentProviderKey(agent);
    let resolved = this.resolved.get(key);
    if (!resolved) {
      const entry = this.config.providers[agent.provider];
      if (!entry) throw new Error(`agent '${agent.alias}': unknown provider '${agent.provider}'`);
      resolved = this.build(agentProviderConfig(entry, agent));
      this.resolved.set(key, resolved);
    }
    return resolved;
  };
}
