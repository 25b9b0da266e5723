// What the agents-pane benchmark's model says and expects, shared by the model server
// (agentsTreeScenario.js, run by model-server.js) and the benchmark so both sides agree on the script and the config.
import { fakeTrustedProvider } from '../lib/benchConfig.js';

export const AGENTS_BENCH = {
  warmupPrompt: 'Warm up before the tree.',
  warmupAnswer: 'warm and ready',
  rootPrompt: 'Build the benchmark tree.',
  midPrompt: (i) => `mid task ${i}: hand the parts to leaf agents`,
  midRe: /^mid task (\d+):/,
  leafPrompt: (m, j) => `leaf task ${m}-${j}: stream until stopped`,
  leafRe: /^leaf task (\d+)-(\d+):/,
};

/**
 * The project config: main → mid (agentic, parallel tools) → leaf (single call), all under
 * a risk profile that allows delegation; limits raised so every child runs at once.
 * `[providers.fake]` points at the loopback server.
 */
export function treeConfig(url, { children }) {
  return `default_agent = "main"

${fakeTrustedProvider(url)}

[runtime_profiles.fanout]
parallel_tools = true
agentic = true

[agents.main]
provider = "fake"
risk_profile = "trusted"
runtime_profile = "fanout"

[agents.mid]
provider = "fake"
risk_profile = "trusted"
runtime_profile = "fanout"
description = "splits work across leaf agents"

[agents.leaf]
provider = "fake"
risk_profile = "trusted"
description = "does one part"

[delegation]
max_children_per_agent = 50
max_concurrent = ${children + 100}
`;
}
