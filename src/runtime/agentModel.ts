// An agent's own model: `model` and `temperature` in its definition (an agent file or an
// `[agents.<alias>]` table) override its provider's for that agent only. Every run is built
// through providerFor (runtime.ts), so the root, spawn_subagent children, delegates and
// steered continuations all get the override; the provider entry itself is never changed.
import type { AgentConfig, ProviderConfig } from '../config/types.js';

/** The provider entry as this agent talks to it. */
export function agentProviderConfig(pc: ProviderConfig, agent: Pick<AgentConfig, 'model' | 'temperature'>): ProviderConfig {
  if (agent.model === undefined && agent.temperature === undefined) return pc;
  return {
    ...pc,
    ...(agent.model !== undefined ? { model: agent.model } : {}),
    ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
  };
}

/** One provider instance per provider entry, model and temperature. */
export function agentProviderKey(agent: Pick<AgentConfig, 'provider' | 'model' | 'temperature'>): string {
  return JSON.stringify([agent.provider, agent.model ?? null, agent.temperature ?? null]);
}
