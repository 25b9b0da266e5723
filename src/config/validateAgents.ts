// Agents: provider references, profiles, the delegates roster, and the default agent.
import type { AgentConfig, DelegateEntry, DelegateMode, ProviderConfig, RiskProfile, RuntimeProfile } from './types.js';
import { t } from '../i18n/index.js';
import { knownList, quote, type KeyPath } from './errors.js';
import { isTable, type RawTable } from './merge.js';
import type { Reader } from './read.js';
import { AGENT_DEFAULTS, DEFAULT_AGENT_ALIAS } from './defaults.js';

export const DELEGATE_MODES: readonly DelegateMode[] = ['bounded', 'independent'];

interface Known {
  providers: Record<string, ProviderConfig>;
  risk_profiles: Record<string, RiskProfile>;
  runtime_profiles: Record<string, RuntimeProfile>;
}

/** String entries stand for bounded targets; object entries name their mode. An unknown
 * agent, the agent itself or a repeat is an error at `agents.<alias>.delegates[<i>]`. */
function validateDelegates(r: Reader, raw: RawTable, alias: string, path: KeyPath, agentNames: string[]): DelegateEntry[] {
  const value = raw.delegates;
  if (value === undefined) return [];
  if (!Array.isArray(value)) r.wrongType(path, 'delegateList', value);
  const seen = new Map<string, number>();
  return value.map((item: unknown, i): DelegateEntry => {
    const p = [...path, i];
    let entry: DelegateEntry;
    if (typeof item === 'string') {
      entry = { agent: item, mode: 'bounded' };
    } else if (isTable(item)) {
      const agent = r.string(item, 'agent', [...p, 'agent'], { nonEmpty: true });
      if (agent === undefined) r.fail([...p, 'agent'], t('config:errors.missing'));
      entry = { agent, mode: r.oneOf(item, 'mode', [...p, 'mode'], DELEGATE_MODES) ?? 'bounded' };
    } else {
      r.wrongType(p, 'delegateEntry', item);
    }
    if (entry.agent === alias) r.fail(p, t('config:errors.delegateSelf', { name: quote(alias) }));
    if (!agentNames.includes(entry.agent)) {
      r.fail(p, t('config:errors.unknownAgent', { name: quote(entry.agent), known: knownList(agentNames) }));
    }
    const first = seen.get(entry.agent);
    if (first !== undefined) r.fail(p, t('config:errors.delegateDuplicate', { name: quote(entry.agent), first }));
    seen.set(entry.agent, i);
    return entry;
  });
}

function validateAgent(r: Reader, alias: string, raw: RawTable, agentNames: string[], known: Known): AgentConfig {
  const path: KeyPath = ['agents', alias];
  const at = (key: string): KeyPath => [...path, key];
  const providerNames = Object.keys(known.providers);

  let provider = r.string(raw, 'provider', at('provider'), { nonEmpty: true });
  if (provider === undefined) {
    // With a single provider there is nothing to choose; otherwise guessing would be wrong.
    if (providerNames.length !== 1) r.fail(at('provider'), t('config:errors.agentProviderMissing', { known: knownList(providerNames) }), path);
    provider = providerNames[0];
  }
  if (!Object.hasOwn(known.providers, provider)) {
    r.fail(at('provider'), t('config:errors.unknownProvider', { name: quote(provider), known: knownList(providerNames) }));
  }

  const agent: AgentConfig = {
    alias,
    provider,
    system_prompt: r.string(raw, 'system_prompt', at('system_prompt')) ?? AGENT_DEFAULTS.system_prompt,
    risk_profile: r.string(raw, 'risk_profile', at('risk_profile'), { nonEmpty: true }) ?? AGENT_DEFAULTS.risk_profile,
    runtime_profile: r.string(raw, 'runtime_profile', at('runtime_profile'), { nonEmpty: true }) ?? AGENT_DEFAULTS.runtime_profile,
    delegate_same_risk_profile:
      r.boolean(raw, 'delegate_same_risk_profile', at('delegate_same_risk_profile')) ?? AGENT_DEFAULTS.delegate_same_risk_profile,
    delegates: validateDelegates(r, raw, alias, at('delegates'), agentNames),
    enabled: r.boolean(raw, 'enabled', at('enabled')) ?? AGENT_DEFAULTS.enabled,
  };
  const description = r.string(raw, 'description', at('description'));
  if (description !== undefined) agent.description = description;
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

function pickDefaultAgent(r: Reader, root: RawTable, agentNames: string[]): string {
  const set = r.string(root, 'default_agent', ['default_agent'], { nonEmpty: true });
  if (set !== undefined) {
    if (!agentNames.includes(set)) {
      r.fail(['default_agent'], t('config:errors.unknownAgent', { name: quote(set), known: knownList(agentNames) }));
    }
    return set;
  }
  if (agentNames.includes(DEFAULT_AGENT_ALIAS)) return DEFAULT_AGENT_ALIAS;
  if (agentNames.length === 1) return agentNames[0];
  // No agents at all happens when a file defines providers only: blame that file.
  if (agentNames.length === 0) r.fail(['agents'], t('config:errors.noAgents'), ['providers']);
  return r.fail(['default_agent'], t('config:errors.defaultAgentMissing', { known: knownList(agentNames) }), ['agents']);
}

export function validateAgents(
  r: Reader,
  root: RawTable,
  known: Known,
): { agents: Record<string, AgentConfig>; default_agent: string } {
  const entries = r.entries(root, 'agents', ['agents']);
  const agentNames = entries.map(([name]) => name);
  const agents: Record<string, AgentConfig> = {};
  for (const [alias, raw] of entries) agents[alias] = validateAgent(r, alias, raw, agentNames, known);

  const default_agent = pickDefaultAgent(r, root, agentNames);
  const main = agents[default_agent];
  if (!main.enabled) r.fail(['agents', default_agent, 'enabled'], t('config:errors.defaultAgentDisabled', { name: quote(default_agent) }));

  for (const agent of Object.values(agents)) {
    for (const [key, problem] of missingProfiles(agent, known)) {
      const path: KeyPath = ['agents', agent.alias, key];
      // The default agent has to run; any other agent only loses its place as a delegate target.
      if (agent.alias === default_agent) r.fail(path, t('config:errors.defaultAgentProfile', { problem }));
      r.warn(path, t('config:warnings.profileMissing', { problem, agent: quote(agent.alias) }));
    }
  }
  return { agents, default_agent };
}
