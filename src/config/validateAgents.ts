// Agents: provider references, profiles, the delegates roster, and the default agent —
// the checks that need the rest of the config, run after the schema has parsed it.
import type { AgentConfig, DelegateEntry, ProviderConfig, RiskProfile, RuntimeProfile } from './types.js';
import { t } from '../i18n/index.js';
import { knownList, quote, type KeyPath } from './errors.js';
import type { AgentFields, ConfigFile } from './schema.js';
import type { Problems } from './problems.js';
import { AGENT_DEFAULTS, DEFAULT_AGENT_ALIAS } from './defaults.js';

interface Known {
  providers: Record<string, ProviderConfig>;
  risk_profiles: Record<string, RiskProfile>;
  runtime_profiles: Record<string, RuntimeProfile>;
}

/** The agent itself or a repeat is an error at `agents.<alias>.delegates[<i>]` (the schema
 * has already refused unknown agents there). */
function checkDelegates(p: Problems, entries: DelegateEntry[], alias: string, path: KeyPath): DelegateEntry[] {
  const seen = new Map<string, number>();
  entries.forEach((entry, i) => {
    const at = [...path, i];
    if (entry.agent === alias) p.fail(at, t('config:errors.delegateSelf', { name: quote(alias) }));
    const first = seen.get(entry.agent);
    if (first !== undefined) p.fail(at, t('config:errors.delegateDuplicate', { name: quote(entry.agent), first }));
    seen.set(entry.agent, i);
  });
  return entries;
}

function resolveAgent(p: Problems, alias: string, raw: AgentFields): AgentConfig {
  const path: KeyPath = ['agents', alias];
  const at = (key: string): KeyPath => [...path, key];

  const agent: AgentConfig = {
    alias,
    provider: raw.provider,
    system_prompt: raw.system_prompt ?? AGENT_DEFAULTS.system_prompt,
    risk_profile: raw.risk_profile ?? AGENT_DEFAULTS.risk_profile,
    runtime_profile: raw.runtime_profile ?? AGENT_DEFAULTS.runtime_profile,
    delegate_same_risk_profile: raw.delegate_same_risk_profile ?? AGENT_DEFAULTS.delegate_same_risk_profile,
    delegates: checkDelegates(p, raw.delegates, alias, at('delegates')),
    enabled: raw.enabled ?? AGENT_DEFAULTS.enabled,
  };
  if (raw.description !== undefined) agent.description = raw.description;
  if (raw.context !== undefined) agent.context = raw.context;
  if (raw.mcp_servers !== undefined) agent.mcp_servers = [...new Set(raw.mcp_servers)];
  if (raw.model !== undefined) agent.model = raw.model;
  if (raw.temperature !== undefined) agent.temperature = raw.temperature;
  if (raw.tools !== undefined) agent.tools = raw.tools;
  if (raw.isolation !== undefined) agent.isolation = raw.isolation;
  if (raw.runtime === 'acp') {
    if (raw.command === undefined) p.fail(at('command'), t('config:errors.acpCommandMissing'));
    else
      agent.acp = {
        command: raw.command,
        args: raw.args ?? [],
        env: raw.env ?? {},
        ...(raw.cwd !== undefined ? { cwd: raw.cwd } : {}),
        perChild: raw.per_child ?? false,
      };
  }
  for (const key of ['max_child_tokens', 'max_child_cost_cents', 'max_child_seconds'] as const) {
    if (raw[key] !== undefined) agent[key] = raw[key];
  }
  return agent;
}

/** Each missing profile of the agent, as [key, problem]. */
function missingProfiles(agent: AgentConfig, known: Known): [string, string][] {
  const out: [string, string][] = [];
  if (!Object.hasOwn(known.risk_profiles, agent.risk_profile)) {
    const names = knownList(Object.keys(known.risk_profiles));
    out.push(['risk_profile', t('config:errors.riskProfileMissing', { name: quote(agent.risk_profile), known: names })]);
  }
  if (!Object.hasOwn(known.runtime_profiles, agent.runtime_profile)) {
    const names = knownList(Object.keys(known.runtime_profiles));
    out.push(['runtime_profile', t('config:errors.runtimeProfileMissing', { name: quote(agent.runtime_profile), known: names })]);
  }
  return out;
}

/** `own`: the agents a file or the starter defined; built-in agents kept beside a file's own
 * are named by default_agent only explicitly. */
function pickDefaultAgent(p: Problems, set: string | undefined, allNames: string[], agentNames: string[]): string {
  if (set !== undefined) {
    if (!allNames.includes(set)) {
      p.fail(['default_agent'], t('config:errors.unknownAgent', { name: quote(set), known: knownList(allNames) }));
    }
    return set;
  }
  if (agentNames.includes(DEFAULT_AGENT_ALIAS)) return DEFAULT_AGENT_ALIAS;
  if (agentNames.length === 1) return agentNames[0];
  // No agents at all happens when a file defines providers only: blame that file.
  if (agentNames.length === 0) p.fail(['agents'], t('config:errors.noAgents'), ['providers']);
  return p.fail(['default_agent'], t('config:errors.defaultAgentMissing', { known: knownList(agentNames) }), ['agents']);
}

export function validateAgents(
  p: Problems,
  file: ConfigFile,
  known: Known,
  builtinOnly: readonly string[] = [],
): { agents: Record<string, AgentConfig>; default_agent: string } {
  const agentNames = Object.keys(file.agents);
  const agents: Record<string, AgentConfig> = {};
  for (const [alias, raw] of Object.entries(file.agents)) agents[alias] = resolveAgent(p, alias, raw);

  const own = agentNames.filter((n) => !builtinOnly.includes(n));
  const default_agent = pickDefaultAgent(p, file.default_agent, agentNames, own);
  const main = agents[default_agent];
  if (!main.enabled) p.fail(['agents', default_agent, 'enabled'], t('config:errors.defaultAgentDisabled', { name: quote(default_agent) }));

  for (const agent of Object.values(agents)) {
    for (const [key, problem] of missingProfiles(agent, known)) {
      const path: KeyPath = ['agents', agent.alias, key];
      // The default agent has to run; any other agent only loses its place as a delegate target.
      if (agent.alias === default_agent) p.fail(path, t('config:errors.defaultAgentProfile', { problem }));
      p.warn(path, t('config:warnings.profileMissing', { problem, agent: quote(agent.alias) }));
    }
  }
  return { agents, default_agent };
}
