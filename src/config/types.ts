// The validated, fully-defaulted configuration the rest of arbor reads.
// Raw TOML never leaves src/config: everything downstream sees these shapes.
import type { ProviderType } from '../providers/types.js';
import type { KeyOverrides } from './keySpec.js';

export interface Pricing {
  input_per_mtok: number;
  output_per_mtok: number;
}

export interface ProviderConfig {
  name: string;
  type: ProviderType;
  base_url?: string;
  model: string;
  /** Name of the environment variable that holds the key; the key itself is never stored here. */
  api_key_env?: string;
  temperature?: number;
  max_tokens?: number;
  timeout_secs?: number;
  /** Remote providers: how long to wait for the first event of a reply. Absent: timeout_secs,
   * else DEFAULT_FIRST_BYTE_TIMEOUT_SECS (providerTimeouts() resolves it). */
  first_byte_timeout_secs?: number;
  /** Remote providers: the longest silence between two events of a reply. Absent:
   * timeout_secs, else DEFAULT_IDLE_TIMEOUT_SECS. */
  idle_timeout_secs?: number;
  headers: Record<string, string>;
  pricing?: Pricing;
}

export type DelegateMode = 'bounded' | 'independent';

export interface DelegateEntry {
  agent: string;
  mode: DelegateMode;
}

export interface AgentConfig {
  alias: string;
  provider: string;
  system_prompt: string;
  risk_profile: string;
  runtime_profile: string;
  description?: string;
  delegate_same_risk_profile: boolean;
  delegates: DelegateEntry[];
  enabled: boolean;
}

export interface RiskProfile {
  name: string;
  allowed_tools: string[];
  excluded_tools: string[];
  deny_all_tools: boolean;
  auto_approve: string[];
  always_ask: string[];
  allowed_roots: string[];
  forbidden_paths: string[];
  allowed_commands: string[];
  /** Secret-looking variables (api_key_env, *_KEY, *_TOKEN, *_SECRET) kept in tool
   * subprocess environments; every other one is removed (tools/toolEnv.ts). */
  shell_env_passthrough: string[];
  max_actions_per_hour: number;
  max_cost_per_day_cents: number;
  delegation_policy: { mode: 'allow' | 'forbidden' };
}

export interface RuntimeProfile {
  name: string;
  max_tool_iterations: number;
  parallel_tools: boolean;
  shell_timeout_secs: number;
  /** undefined = no aggregate budget. */
  max_execution_tree_iterations?: number;
  agentic: boolean;
  max_delegation_depth: number;
  delegation_timeout_secs?: number;
  agentic_timeout_secs?: number;
  /** Most of one reply kept, drawn and saved, in KiB. Absent: DEFAULT_MAX_REPLY_KB
   * (replyCapBytes() resolves it). */
  max_reply_kb?: number;
}

export type RunawayAction = 'pause_spawning' | 'pause_tree' | 'kill_tree';

export interface RunawayConfig {
  max_tree_size?: number;
  max_spawns_per_minute?: number;
  max_tree_tokens?: number;
  max_tree_cost_cents?: number;
  on_trip: RunawayAction;
}

export interface DelegationConfig {
  max_concurrent: number;
  max_children_per_agent: number;
  archive_after_minutes: number;
  subagent_auto_approve: boolean;
  run_timeout_secs: number;
  runaway: RunawayConfig;
}

export interface UiConfig {
  language: 'en' | 'es';
}

export interface ArborConfig {
  default_agent: string;
  providers: Record<string, ProviderConfig>;
  agents: Record<string, AgentConfig>;
  risk_profiles: Record<string, RiskProfile>;
  runtime_profiles: Record<string, RuntimeProfile>;
  delegation: DelegationConfig;
  ui: UiConfig;
  /** `[keys.<group>] <command> = "key"` overrides of the key table (absent: defaults). */
  keys?: KeyOverrides;
}

/** Where a config came from and what the loader noticed on the way. */
export interface LoadedConfig {
  config: ArborConfig;
  /** Files read, lowest precedence first. */
  sources: string[];
  /** Human-readable warnings (unknown keys, ...), each said once. */
  warnings: string[];
  /** Set when no config file exists and a provider was picked from the environment,
   * e.g. "OPENAI_API_KEY" — the status bar says so. */
  autoDetectedFrom?: string;
}

/** A config problem with its exact location. `file` is absent for built-in defaults. */
export class ConfigError extends Error {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly keyPath?: string;

  constructor(opts: { message: string; file?: string; line?: number; column?: number; keyPath?: string }) {
    super(opts.message);
    this.name = 'ConfigError';
    this.file = opts.file;
    this.line = opts.line;
    this.column = opts.column;
    this.keyPath = opts.keyPath;
  }
}
