// The validated, fully-defaulted configuration the rest of arbor reads.
// Raw TOML never leaves src/config: everything downstream sees these shapes.
import type { Language } from '../i18n/index.js';
import type { ProviderType } from '../model/provider.js';
import type { KeyOverrides } from './keySpec.js';
import type {
  AgentFields,
  ContextFields,
  DelegateEntryFields,
  DelegationFields,
  PricingFields,
  ProviderFields,
  RiskProfileFields,
  RunawayFields,
  RuntimeProfileFields,
} from './schema.js';
import type { McpServerFields } from './mcpSchema.js';
import type { SHOW_REASONING } from './schema.js';

// The shapes below are the schema's output (schema.ts, z.output), plus what validation adds:
// the entry's own name, and defaults that depend on the rest of the config.

export type Pricing = PricingFields;

/** `api_key_env` names the environment variable that holds the key; the key itself is
 * never stored here. Absent first_byte_timeout_secs / idle_timeout_secs fall back to
 * timeout_secs, then to the defaults (providerTimeouts() resolves them). */
export type ProviderConfig = Omit<ProviderFields, 'model' | 'headers' | 'type'> & {
  name: string;
  type: ProviderType;
  model: string;
  headers: Record<string, string>;
};

export type DelegateEntry = DelegateEntryFields;
export type DelegateMode = DelegateEntry['mode'];

export type AgentConfig = {
  alias: string;
  provider: string;
  description?: string;
  delegates: DelegateEntry[];
  /** false: no project context in its system prompt (absent = true). */
  context?: boolean;
  /** Which `[mcp_servers]` this agent sees; absent = every enabled one. */
  mcp_servers?: string[];
  /** The provider's model and temperature for this agent only (absent: the provider's). */
  model?: string;
  temperature?: number;
  /** Tool-name globs the agent may use, within its risk profile (absent: all it allows). */
  tools?: string[];
  /** 'worktree': its runs as children get their own git worktree (absent: [delegation] isolation). */
  isolation?: 'none' | 'worktree';
  /** `runtime = "acp"`: an external ACP agent, started as `command args` (src/acp/client/). */
  acp?: AcpAgentConfig;
} & Required<Pick<AgentFields, 'system_prompt' | 'risk_profile' | 'runtime_profile' | 'delegate_same_risk_profile' | 'enabled'>> &
  Pick<AgentFields, 'max_child_tokens' | 'max_child_cost_cents' | 'max_child_seconds'>;

/** How an external ACP agent is started: its env is a tool subprocess's (no provider keys)
 * plus `env`; `cwd` defaults to the caller's. */
export interface AcpAgentConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  perChild: boolean;
}

export type RiskProfile = {
  name: string;
  /** Never read from a config file: the runtime sets it on every profile of an isolated run
   * (runtime/worktrees/place.ts). `folder` ($ARBOR_HOME/worktrees) is refused to its file
   * tools except for `except` (the run's own worktree), so no other run's worktree, of
   * this session or another, is reachable whatever its allowed_roots say. */
  worktree_fence?: { folder: string; except: string[] };
} & RiskProfileFields;

/** max_execution_tree_iterations undefined = no aggregate budget; max_reply_kb absent =
 * DEFAULT_MAX_REPLY_KB (replyCapBytes() resolves it). */
export type RuntimeProfile = { name: string } & RuntimeProfileFields;

export type RunawayConfig = RunawayFields;
export type RunawayAction = RunawayConfig['on_trip'];
export type DelegationConfig = DelegationFields;
export type MergeMode = NonNullable<DelegationConfig['merge']>;

/** One `[mcp_servers.<name>]` entry: `command` (stdio) or `url` (Streamable HTTP / SSE). */
export type McpServerConfig = McpServerFields & { name: string };

export interface UiConfig {
  language: Language;
  /** How model reasoning is shown (absent: SHOW_REASONING_DEFAULT, "collapsed"). */
  show_reasoning?: ShowReasoning;
}

export type ShowReasoning = (typeof SHOW_REASONING)[number];

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
  /** `[context]` as written (absent: the defaults; config/projectContext.ts). */
  context?: ContextFields;
  /** `[mcp_servers.<name>]`; absent when none are configured. */
  mcp_servers?: Record<string, McpServerConfig>;
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
  /** Where each agent was defined: a config or agent file path; absent for built-in ones. */
  agentSources?: Record<string, string | undefined>;
  /** The folder's own .arbor settings were trusted and applied, or left out (absent: it
   * has none). Set by the CLI's trust decision (cli/projectTrust.ts). */
  projectTrust?: 'trusted' | 'untrusted';
}
