// Turns the merged raw config into the typed, fully-defaulted ArborConfig, or throws a
// ConfigError at the first problem. Agents are checked in validateAgents.ts.
import type {
  ArborConfig,
  DelegationConfig,
  Pricing,
  ProviderConfig,
  RiskProfile,
  RunawayAction,
  RuntimeProfile,
  UiConfig,
} from './types.js';
import type { ProviderType } from '../providers/types.js';
import { SUPPORTED_LANGUAGES, t } from '../i18n/index.js';
import { knownList, quote, type KeyPath } from './errors.js';
import { isKeyCommand, KEY_COMMANDS, parseKeySpec, type KeyOverrides } from './keySpec.js';
import type { Origins, RawTable } from './merge.js';
import { Reader } from './read.js';
import {
  DEFAULT_PROFILE,
  OFFLINE_MODEL,
  defaultDelegation,
  defaultRiskProfile,
  defaultRuntimeProfile,
  defaultUi,
} from './defaults.js';
import { validateAgents } from './validateAgents.js';

export const PROVIDER_TYPES: readonly ProviderType[] = ['openai-compatible', 'openai', 'anthropic', 'offline'];
export const RUNAWAY_ACTIONS: readonly RunawayAction[] = ['pause_spawning', 'pause_tree', 'kill_tree'];
const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function validateProvider(r: Reader, name: string, raw: RawTable, path: KeyPath): ProviderConfig {
  const at = (key: string): KeyPath => [...path, key];
  const type = r.oneOf(raw, 'type', at('type'), PROVIDER_TYPES);
  if (type === undefined) r.fail(at('type'), t('config:errors.missingOneOf', { allowed: PROVIDER_TYPES.map(quote).join(', ') }));

  let model = r.string(raw, 'model', at('model'), { nonEmpty: true });
  if (model === undefined) {
    if (type !== 'offline') r.fail(at('model'), t('config:errors.modelRequired'));
    model = OFFLINE_MODEL;
  }

  const base_url = r.string(raw, 'base_url', at('base_url'), { nonEmpty: true });
  if (base_url === undefined && type === 'openai-compatible') r.fail(at('base_url'), t('config:errors.baseUrlRequired'));
  if (base_url !== undefined && !isHttpUrl(base_url)) r.fail(at('base_url'), t('config:errors.badUrl', { value: quote(base_url) }));

  const api_key_env = r.string(raw, 'api_key_env', at('api_key_env'));
  // Never echo the value: a key pasted here by mistake must not end up in an error line.
  if (api_key_env !== undefined && !ENV_VAR_NAME.test(api_key_env)) r.fail(at('api_key_env'), t('config:errors.badEnvName'));

  const provider: ProviderConfig = {
    name,
    type,
    model,
    headers: r.stringMap(raw, 'headers', at('headers')) ?? {},
  };
  if (base_url !== undefined) provider.base_url = base_url;
  if (api_key_env !== undefined) provider.api_key_env = api_key_env;
  const temperature = r.number(raw, 'temperature', at('temperature'), { min: 0, max: 2 });
  if (temperature !== undefined) provider.temperature = temperature;
  const max_tokens = r.integer(raw, 'max_tokens', at('max_tokens'), { min: 1 });
  if (max_tokens !== undefined) provider.max_tokens = max_tokens;
  // Absent timeouts are resolved by providerTimeouts() (timeout_secs stands for both).
  const positive = { min: 0, minExclusive: true };
  const timeout_secs = r.number(raw, 'timeout_secs', at('timeout_secs'), positive);
  if (timeout_secs !== undefined) provider.timeout_secs = timeout_secs;
  const firstByte = r.number(raw, 'first_byte_timeout_secs', at('first_byte_timeout_secs'), positive);
  if (firstByte !== undefined) provider.first_byte_timeout_secs = firstByte;
  const idle = r.number(raw, 'idle_timeout_secs', at('idle_timeout_secs'), positive);
  if (idle !== undefined) provider.idle_timeout_secs = idle;
  const pricing = validatePricing(r, raw, at('pricing'));
  if (pricing) provider.pricing = pricing;
  return provider;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function validatePricing(r: Reader, provider: RawTable, path: KeyPath): Pricing | undefined {
  const raw = r.table(provider, 'pricing', path);
  if (!raw) return undefined;
  const read = (key: keyof Pricing): number => {
    const v = r.number(raw, key, [...path, key], { min: 0 });
    if (v === undefined) r.fail([...path, key], t('config:errors.missing'));
    return v;
  };
  return { input_per_mtok: read('input_per_mtok'), output_per_mtok: read('output_per_mtok') };
}

function validateRiskProfile(r: Reader, name: string, raw: RawTable, path: KeyPath): RiskProfile {
  const p = defaultRiskProfile(name);
  const at = (key: string): KeyPath => [...path, key];
  const list = (key: keyof RiskProfile & string): string[] | undefined => r.stringList(raw, key, at(key));
  p.allowed_tools = list('allowed_tools') ?? p.allowed_tools;
  p.excluded_tools = list('excluded_tools') ?? p.excluded_tools;
  p.deny_all_tools = r.boolean(raw, 'deny_all_tools', at('deny_all_tools')) ?? p.deny_all_tools;
  p.auto_approve = list('auto_approve') ?? p.auto_approve;
  p.always_ask = list('always_ask') ?? p.always_ask;
  p.allowed_roots = list('allowed_roots') ?? p.allowed_roots;
  p.forbidden_paths = list('forbidden_paths') ?? p.forbidden_paths;
  p.allowed_commands = list('allowed_commands') ?? p.allowed_commands;
  const passthrough = list('shell_env_passthrough');
  passthrough?.forEach((name, i) => {
    if (!ENV_VAR_NAME.test(name)) r.fail([...at('shell_env_passthrough'), i], t('config:errors.badEnvName'));
  });
  p.shell_env_passthrough = passthrough ?? p.shell_env_passthrough;
  p.max_actions_per_hour = r.integer(raw, 'max_actions_per_hour', at('max_actions_per_hour'), { min: 0 }) ?? p.max_actions_per_hour;
  p.max_cost_per_day_cents =
    r.number(raw, 'max_cost_per_day_cents', at('max_cost_per_day_cents'), { min: 0 }) ?? p.max_cost_per_day_cents;
  const policy = r.table(raw, 'delegation_policy', at('delegation_policy'));
  if (policy) {
    const mode = r.oneOf(policy, 'mode', [...at('delegation_policy'), 'mode'], ['allow', 'forbidden'] as const);
    if (mode) p.delegation_policy = { mode };
  }
  return p;
}

function validateRuntimeProfile(r: Reader, name: string, raw: RawTable, path: KeyPath): RuntimeProfile {
  const p = defaultRuntimeProfile(name);
  const at = (key: string): KeyPath => [...path, key];
  p.max_tool_iterations =
    r.integer(raw, 'max_tool_iterations', at('max_tool_iterations'), { min: 1, max: 1000 }) ?? p.max_tool_iterations;
  p.parallel_tools = r.boolean(raw, 'parallel_tools', at('parallel_tools')) ?? p.parallel_tools;
  p.shell_timeout_secs =
    r.number(raw, 'shell_timeout_secs', at('shell_timeout_secs'), { min: 0, minExclusive: true }) ?? p.shell_timeout_secs;
  // Omitted means "no aggregate budget", so 0 cannot also mean that: it is rejected.
  if (raw.max_execution_tree_iterations === 0) r.fail(at('max_execution_tree_iterations'), t('config:errors.treeBudgetZero'));
  const tree = r.integer(raw, 'max_execution_tree_iterations', at('max_execution_tree_iterations'), { min: 1 });
  if (tree !== undefined) p.max_execution_tree_iterations = tree;
  p.agentic = r.boolean(raw, 'agentic', at('agentic')) ?? p.agentic;
  p.max_delegation_depth =
    r.integer(raw, 'max_delegation_depth', at('max_delegation_depth'), { min: 1, max: 10 }) ?? p.max_delegation_depth;
  const positive = { min: 0, minExclusive: true };
  const delegationTimeout = r.number(raw, 'delegation_timeout_secs', at('delegation_timeout_secs'), positive);
  if (delegationTimeout !== undefined) p.delegation_timeout_secs = delegationTimeout;
  const agenticTimeout = r.number(raw, 'agentic_timeout_secs', at('agentic_timeout_secs'), positive);
  if (agenticTimeout !== undefined) p.agentic_timeout_secs = agenticTimeout;
  const replyKb = r.integer(raw, 'max_reply_kb', at('max_reply_kb'), { min: 1, max: 1024 * 1024 });
  if (replyKb !== undefined) p.max_reply_kb = replyKb;
  return p;
}

function validateDelegation(r: Reader, root: RawTable): DelegationConfig {
  const d = defaultDelegation();
  const raw = r.table(root, 'delegation', ['delegation']);
  if (!raw) return d;
  const at = (key: string): KeyPath => ['delegation', key];
  d.max_concurrent = r.integer(raw, 'max_concurrent', at('max_concurrent'), { min: 1, max: 1000 }) ?? d.max_concurrent;
  d.max_children_per_agent =
    r.integer(raw, 'max_children_per_agent', at('max_children_per_agent'), { min: 1, max: 1000 }) ?? d.max_children_per_agent;
  d.archive_after_minutes = r.number(raw, 'archive_after_minutes', at('archive_after_minutes'), { min: 0 }) ?? d.archive_after_minutes;
  d.subagent_auto_approve = r.boolean(raw, 'subagent_auto_approve', at('subagent_auto_approve')) ?? d.subagent_auto_approve;
  d.run_timeout_secs = r.number(raw, 'run_timeout_secs', at('run_timeout_secs'), { min: 0 }) ?? d.run_timeout_secs;

  const runaway = r.table(raw, 'runaway', at('runaway'));
  if (runaway) {
    const rp = (key: string): KeyPath => ['delegation', 'runaway', key];
    const size = r.integer(runaway, 'max_tree_size', rp('max_tree_size'), { min: 1 });
    if (size !== undefined) d.runaway.max_tree_size = size;
    const spawns = r.integer(runaway, 'max_spawns_per_minute', rp('max_spawns_per_minute'), { min: 1 });
    if (spawns !== undefined) d.runaway.max_spawns_per_minute = spawns;
    const tokens = r.integer(runaway, 'max_tree_tokens', rp('max_tree_tokens'), { min: 1 });
    if (tokens !== undefined) d.runaway.max_tree_tokens = tokens;
    const cost = r.number(runaway, 'max_tree_cost_cents', rp('max_tree_cost_cents'), { min: 0, minExclusive: true });
    if (cost !== undefined) d.runaway.max_tree_cost_cents = cost;
    d.runaway.on_trip = r.oneOf(runaway, 'on_trip', rp('on_trip'), RUNAWAY_ACTIONS) ?? d.runaway.on_trip;
  }
  return d;
}

function validateUi(r: Reader, root: RawTable, env: NodeJS.ProcessEnv): UiConfig {
  const ui = defaultUi(env);
  const raw = r.table(root, 'ui', ['ui']);
  if (raw) ui.language = r.oneOf(raw, 'language', ['ui', 'language'], SUPPORTED_LANGUAGES) ?? ui.language;
  return ui;
}

/** `[keys.<group>] <command> = "ctrl+x"` (or a list of keys): each command must exist and
 * each key must parse; the error names the key path. */
function validateKeys(r: Reader, root: RawTable): KeyOverrides | undefined {
  const out: KeyOverrides = {};
  let any = false;
  for (const [group, raw] of r.entries(root, 'keys', ['keys'])) {
    for (const [name, value] of Object.entries(raw)) {
      const path: KeyPath = ['keys', group, name];
      const id = `${group}.${name}`;
      if (!isKeyCommand(id)) {
        const known = Object.keys(KEY_COMMANDS).filter((c) => c.startsWith(`${group}.`)).map((c) => c.slice(group.length + 1));
        r.fail(path, known.length ? t('config:errors.unknownKeyCommand', { name: quote(name), known: knownList(known) }) : t('config:errors.unknownKeyGroup', { name: quote(group), known: knownList(new Set(Object.keys(KEY_COMMANDS).map((c) => c.split('.')[0]))) }));
      }
      const list = typeof value === 'string' ? [value] : Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
      if (!list) r.wrongType(path, 'keyList', value);
      for (const key of list) {
        if (!parseKeySpec(key)) r.fail(path, t('config:errors.badKey', { value: quote(key) }));
      }
      out[id] = list;
      any = true;
    }
  }
  return any ? out : undefined;
}

/** Validates the merged config. Warnings (e.g. agents on unconfigured profiles) are
 * returned; the first error is thrown as a ConfigError. */
export function validateConfig(
  root: RawTable,
  origins: Origins,
  env: NodeJS.ProcessEnv,
): { config: ArborConfig; warnings: string[] } {
  const r = new Reader(origins);

  const providers: Record<string, ProviderConfig> = {};
  for (const [name, raw] of r.entries(root, 'providers', ['providers'])) {
    providers[name] = validateProvider(r, name, raw, ['providers', name]);
  }

  // "default" always exists; a user table of that name only overrides the fields it sets.
  const risk_profiles: Record<string, RiskProfile> = { [DEFAULT_PROFILE]: defaultRiskProfile(DEFAULT_PROFILE) };
  for (const [name, raw] of r.entries(root, 'risk_profiles', ['risk_profiles'])) {
    risk_profiles[name] = validateRiskProfile(r, name, raw, ['risk_profiles', name]);
  }
  const runtime_profiles: Record<string, RuntimeProfile> = { [DEFAULT_PROFILE]: defaultRuntimeProfile(DEFAULT_PROFILE) };
  for (const [name, raw] of r.entries(root, 'runtime_profiles', ['runtime_profiles'])) {
    runtime_profiles[name] = validateRuntimeProfile(r, name, raw, ['runtime_profiles', name]);
  }

  const delegation = validateDelegation(r, root);
  const ui = validateUi(r, root, env);
  const keys = validateKeys(r, root);
  const { agents, default_agent } = validateAgents(r, root, { providers, risk_profiles, runtime_profiles });

  return {
    config: { default_agent, providers, agents, risk_profiles, runtime_profiles, delegation, ui, ...(keys ? { keys } : {}) },
    warnings: r.warnings,
  };
}
