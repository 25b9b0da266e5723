// Built-in defaults: the value of every field a config file leaves out, and the starter
// setup used when no config file defines any provider or agent.
import type { DelegationConfig, ProviderConfig, RiskProfile, RuntimeProfile, UiConfig } from './types.js';
import { languageFromEnv } from '../i18n/index.js';
import { delegationDefaults, riskProfileDefaults, runtimeProfileDefaults } from './schema.js';

/** The profile name every agent uses unless it says otherwise; it always exists. */
export const DEFAULT_PROFILE = 'default';
export const DEFAULT_AGENT_ALIAS = 'main';
export const OFFLINE_PROVIDER = 'offline';
export const OFFLINE_MODEL = 'arbor-offline';

// Model-facing text, so it is not localized.
export const DEFAULT_SYSTEM_PROMPT =
  'You are a helpful assistant working in a terminal. Answer clearly and concisely, ' +
  'use the tools you are given when they help, and say so plainly when you cannot do something.';

export const AGENT_DEFAULTS = {
  risk_profile: DEFAULT_PROFILE,
  runtime_profile: DEFAULT_PROFILE,
  delegate_same_risk_profile: true,
  enabled: true,
  system_prompt: DEFAULT_SYSTEM_PROMPT,
} as const;

/** A server that accepts a request and then says nothing must not hold a turn for long:
 * these bound the wait for a reply's first event and the silence between two events. */
export const DEFAULT_FIRST_BYTE_TIMEOUT_SECS = 60;
export const DEFAULT_IDLE_TIMEOUT_SECS = 120;

/** A provider's two timeouts in seconds: its own keys, else timeout_secs (the older single
 * knob), else the defaults. */
export function providerTimeouts(config: Pick<ProviderConfig, 'first_byte_timeout_secs' | 'idle_timeout_secs' | 'timeout_secs'>): {
  firstByteSecs: number;
  idleSecs: number;
} {
  const positive = (v: number | undefined) => (v !== undefined && Number.isFinite(v) && v > 0 ? v : undefined);
  return {
    firstByteSecs: positive(config.first_byte_timeout_secs) ?? positive(config.timeout_secs) ?? DEFAULT_FIRST_BYTE_TIMEOUT_SECS,
    idleSecs: positive(config.idle_timeout_secs) ?? positive(config.timeout_secs) ?? DEFAULT_IDLE_TIMEOUT_SECS,
  };
}

/** A model can stream far more than anyone reads (a 50 MB reply froze the chat for over a
 * minute at 3 GB). What is kept of one reply, drawn, saved and sent back, is capped. */
export const DEFAULT_MAX_REPLY_KB = 1024;

export function replyCapBytes(profile: Pick<RuntimeProfile, 'max_reply_kb'>): number {
  const kb = profile.max_reply_kb;
  return (kb !== undefined && Number.isFinite(kb) && kb > 0 ? kb : DEFAULT_MAX_REPLY_KB) * 1024;
}

// The values a config leaves out are the schema's defaults (schema.ts): one source.
export function defaultRiskProfile(name: string): RiskProfile {
  return { name, ...riskProfileDefaults() };
}

/** A named runtime profile; "no aggregate budget" is spelled out as an explicit undefined. */
export function runtimeProfileNamed(name: string, fields: Omit<RuntimeProfile, 'name'>): RuntimeProfile {
  return { name, max_execution_tree_iterations: undefined, ...fields };
}

export function defaultRuntimeProfile(name: string): RuntimeProfile {
  return runtimeProfileNamed(name, runtimeProfileDefaults());
}

export function defaultDelegation(): DelegationConfig {
  return delegationDefaults();
}

export function defaultUi(env: NodeJS.ProcessEnv = process.env): UiConfig {
  return { language: languageFromEnv(env) };
}

/** A provider picked from an API key in the environment when there is no config file.
 * Only the variable's name is kept; the key itself never enters the config. */
export interface DetectedProvider {
  envVar: string;
  name: string;
  type: 'openai' | 'anthropic';
  model: string;
}

export const ENV_PROVIDERS: readonly DetectedProvider[] = [
  { envVar: 'OPENAI_API_KEY', name: 'openai', type: 'openai', model: 'gpt-4.1-mini' },
  { envVar: 'ANTHROPIC_API_KEY', name: 'anthropic', type: 'anthropic', model: 'claude-sonnet-4-5' },
];

/** First match wins, in the order above. A blank variable does not count. */
export function detectProviderFromEnv(env: NodeJS.ProcessEnv): DetectedProvider | undefined {
  return ENV_PROVIDERS.find((p) => (env[p.envVar] ?? '').trim() !== '');
}

export const STARTER_RISK_PROFILE = 'trusted';
export const STARTER_ORCHESTRATOR_PROFILE = 'orchestrator';
export const STARTER_AGENTIC_PROFILE = 'agentic';

export interface StarterAgent {
  alias: string;
  description: string;
  runtime_profile: string;
  system_prompt: string;
  delegates: string[];
}

export const STARTER_AGENTS: readonly StarterAgent[] = [
  {
    alias: 'main',
    description: 'General assistant',
    runtime_profile: STARTER_ORCHESTRATOR_PROFILE,
    system_prompt:
      'You are main, a general assistant working in a terminal. Answer directly when you can. ' +
      'When a specialist should own part of the work, hand it off with the delegate tool: ' +
      'researcher finds and summarizes information, reviewer reviews code and plans.',
    delegates: ['researcher', 'reviewer'],
  },
  {
    alias: 'researcher',
    description: 'Finds and summarizes information',
    runtime_profile: STARTER_AGENTIC_PROFILE,
    system_prompt:
      'You are researcher. Find the information the task asks for with the tools you have, ' +
      'then reply with a concise summary that says where each fact came from.',
    delegates: [],
  },
  {
    alias: 'reviewer',
    description: 'Reviews code and plans',
    runtime_profile: STARTER_AGENTIC_PROFILE,
    system_prompt:
      'You are reviewer. Review the code or plan you are given: list bugs, risks and unclear ' +
      'parts, most important first, each with a concrete fix.',
    delegates: [],
  },
];

/** The names the built-in agents' profiles take beside a config that brings its own
 * providers or agents: not the starter's `trusted`/`orchestrator`/`agentic`, which a user
 * may well name too. Sharing a risk profile would make the built-in agents (offline model)
 * same-profile peers of the user's own, and merging into a user's profile of that name
 * would lend it the built-in `delegation_policy = allow`. */
export const BUILTIN_PROFILE_NAMES = { risk: 'builtin', orchestrator: 'builtin-orchestrator', agentic: 'builtin-agentic' } as const;

/** The built-in agents and the profiles they use, on the built-in offline provider, for a
 * config that brings its own providers or agents: no provider table (the user's list of
 * providers stays theirs) and no default_agent (the user's agents decide it). */
export function builtinAgentsLayer(): Record<string, unknown> {
  const { agents, risk_profiles, runtime_profiles } = starterLayer(undefined, BUILTIN_PROFILE_NAMES);
  return { agents, risk_profiles, runtime_profiles };
}

/** The starter setup as a raw config layer, so it goes through the same validation as a
 * file. Fresh objects on every call: the merge may not mutate them, but callers might. */
export function starterLayer(
  detected?: DetectedProvider,
  names: { risk: string; orchestrator: string; agentic: string } = {
    risk: STARTER_RISK_PROFILE,
    orchestrator: STARTER_ORCHESTRATOR_PROFILE,
    agentic: STARTER_AGENTIC_PROFILE,
  },
): Record<string, unknown> {
  const provider = detected
    ? { name: detected.name, table: { type: detected.type, model: detected.model, api_key_env: detected.envVar } }
    : { name: OFFLINE_PROVIDER, table: { type: 'offline', model: OFFLINE_MODEL } };
  const agents: Record<string, unknown> = {};
  for (const a of STARTER_AGENTS) {
    agents[a.alias] = {
      provider: provider.name,
      description: a.description,
      system_prompt: a.system_prompt,
      risk_profile: names.risk,
      runtime_profile: a.runtime_profile === STARTER_ORCHESTRATOR_PROFILE ? names.orchestrator : names.agentic,
      delegates: a.delegates.map((agent) => ({ agent, mode: 'bounded' })),
    };
  }
  return {
    default_agent: DEFAULT_AGENT_ALIAS,
    providers: { [provider.name]: provider.table },
    agents,
    risk_profiles: { [names.risk]: { delegation_policy: { mode: 'allow' } } },
    runtime_profiles: {
      [names.orchestrator]: { max_tool_iterations: 10, parallel_tools: true },
      [names.agentic]: { agentic: true, max_delegation_depth: 3 },
    },
  };
}
