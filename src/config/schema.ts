// The config file's schema: every key arbor understands, its type, range and default
// value where one applies. validate.ts parses the merged layers with it and then checks
// what a schema cannot see (references between agents, providers and profiles); the
// config types (types.ts) are derived from it, and findUnknownKeys walks it to warn about
// keys it does not know (usually typos like "temprature", ignored otherwise).
import { z } from 'zod';
import { SUPPORTED_LANGUAGES, t } from '../i18n/index.js';
import type { KeyPath } from './errors.js';
import { quote } from './errors.js';
import { isTable, type RawTable } from './merge.js';
import { isKeyCommand, KEY_COMMANDS, parseKeySpec, type KeyOverrides } from './keySpec.js';
import {
  boolean,
  envVarName,
  isHttpUrl,
  duration,
  MAX_DURATION_SECS,
  positive,
  integer,
  looseTable,
  missingKey,
  namedTables,
  number,
  oneOf,
  string,
  stringList,
  stringMap,
  table,
  typeError,
} from './fields.js';
import { knownList } from './errors.js';
import { mcpServersSchema } from './mcpSchema.js';
import { knownKeysBeside, nearestKey } from './suggest.js';

/** The provider every install has (defaults.ts OFFLINE_PROVIDER; kept here so the schema
 * stays below defaults.ts). */
export const BUILTIN_OFFLINE_PROVIDER = 'offline';

export const PROVIDER_TYPES = ['openai-compatible', 'openai', 'anthropic', 'offline'] as const;
export const RUNAWAY_ACTIONS = ['pause_spawning', 'pause_tree', 'kill_tree'] as const;
export const DELEGATE_MODES = ['bounded', 'independent'] as const;
/** What happens to a child's tool call that would ask: strictest first (subagentApprovals.ts). */
export const SUBAGENT_APPROVALS = ['deny', 'ask', 'allow'] as const;
/** Where a child writes: the caller's checkout, or its own git worktree (issue #23). */
export const ISOLATIONS = ['none', 'worktree'] as const;
/** What happens to an isolated child's finished changes (the merge queue). */
export const MERGE_MODES = ['auto', 'ask', 'manual'] as const;

const pricingSchema = table({
  input_per_mtok: number({ min: 0 }, { missing: missingKey }),
  output_per_mtok: number({ min: 0 }, { missing: missingKey }),
});

const providerType = oneOf(PROVIDER_TYPES, {
  missing: () => t('config:errors.missingOneOf', { allowed: PROVIDER_TYPES.map(quote).join(', ') }),
});
const providerModel = string({ nonEmpty: true }).optional();
const providerBaseUrl = string({ nonEmpty: true }).optional();

/** Which keys a provider needs depends on its type, so they are checked right after type,
 * model and base_url, before the remaining keys. */
const providerIdentity = looseTable({ type: providerType, model: providerModel, base_url: providerBaseUrl }).check((ctx) => {
  const p = ctx.value;
  const problem = (key: string, message: string) => ctx.issues.push({ code: 'custom', input: p, path: [key], message });
  if (p.model === undefined && p.type !== 'offline') problem('model', t('config:errors.modelRequired'));
  else if (p.base_url === undefined && p.type === 'openai-compatible') problem('base_url', t('config:errors.baseUrlRequired'));
  else if (p.base_url !== undefined && !isHttpUrl(p.base_url)) problem('base_url', t('config:errors.badUrl', { value: quote(p.base_url) }));
});

const providerSchema = providerIdentity.pipe(
  z.object({
    type: providerType,
    model: providerModel,
    base_url: providerBaseUrl,
    api_key_env: envVarName().optional(),
    headers: stringMap().optional(),
    temperature: number({ min: 0, max: 2 }).optional(),
    max_tokens: integer({ min: 1 }).optional(),
    // Absent timeouts are resolved by providerTimeouts() (timeout_secs stands for both).
    timeout_secs: number(duration).optional(),
    first_byte_timeout_secs: number(duration).optional(),
    idle_timeout_secs: number(duration).optional(),
    pricing: pricingSchema.optional(),
    /** Anthropic only: ask for extended thinking with this budget (the API's minimum is 1024). */
    thinking_budget_tokens: integer({ min: 1024 }).optional(),
  }),
);

const riskProfileSchema = table({
  allowed_tools: stringList().default(() => []),
  excluded_tools: stringList().default(() => []),
  deny_all_tools: boolean().default(false),
  auto_approve: stringList().default(() => ['read_file', 'list_files', 'grep', 'glob']),
  always_ask: stringList().default(() => []),
  allowed_roots: stringList().default(() => ['.']),
  forbidden_paths: stringList().default(() => ['~/.ssh', '~/.aws']),
  allowed_commands: stringList().default(() => []),
  /** Secret-looking variables (api_key_env, *_KEY, *_TOKEN, *_SECRET) kept in tool
   * subprocess environments; every other one is removed (tools/toolEnv.ts). */
  shell_env_passthrough: z.array(envVarName(), { error: typeError('stringList') }).default(() => []),
  max_actions_per_hour: integer({ min: 0 }).default(0),
  max_cost_per_day_cents: number({ min: 0 }).default(0),
  // A table without a mode keeps the default.
  delegation_policy: table({ mode: oneOf(['allow', 'forbidden']).default('forbidden') }).default(() => ({ mode: 'forbidden' as const })),
  /** MCP tools their server marks readOnlyHint run without asking. Absent = false (kept
   * absent so configs without MCP read back as they always did). */
  trust_read_only_mcp: boolean().optional(),
  /** Narrows [delegation] subagent_approvals for children under this profile; absent = no narrowing. */
  subagent_approvals: oneOf(SUBAGENT_APPROVALS).optional(),
});

const runtimeProfileSchema = table({
  max_tool_iterations: integer({ min: 1, max: 1000 }).default(10),
  parallel_tools: boolean().default(false),
  shell_timeout_secs: number(duration).default(60),
  /** Absent = no aggregate budget, so 0 cannot also mean that: it is refused. */
  max_execution_tree_iterations: z
    .unknown()
    .refine((v) => v !== 0, { error: () => t('config:errors.treeBudgetZero'), abort: true })
    .pipe(integer({ min: 1 }))
    .optional(),
  agentic: boolean().default(false),
  max_delegation_depth: integer({ min: 1, max: 10 }).default(3),
  delegation_timeout_secs: number(duration).optional(),
  agentic_timeout_secs: number(duration).optional(),
  /** Most of one reply kept, drawn and saved, in KiB. Absent: DEFAULT_MAX_REPLY_KB
   * (replyCapBytes() resolves it). */
  max_reply_kb: integer({ min: 1, max: 1024 * 1024 }).optional(),
});

const runawaySchema = table({
  max_tree_size: integer({ min: 1 }).optional(),
  max_spawns_per_minute: integer({ min: 1 }).optional(),
  max_tree_tokens: integer({ min: 1 }).optional(),
  max_tree_cost_cents: number(positive).optional(),
  on_trip: oneOf(RUNAWAY_ACTIONS).default('pause_tree'),
});

/** Per-child limits (runtime/childBudget.ts): absent = none. Also per agent, narrowing. */
const childLimitKeys = () => ({
  max_child_tokens: integer({ min: 1 }).optional(),
  max_child_cost_cents: number(positive).optional(),
  max_child_seconds: number(duration).optional(),
});

const delegationSchema = table({
  max_concurrent: integer({ min: 1, max: 1000 }).default(8),
  max_children_per_agent: integer({ min: 1, max: 1000 }).default(5),
  archive_after_minutes: number({ min: 0 }).default(60),
  subagent_auto_approve: boolean().default(false),
  run_timeout_secs: number({ min: 0, max: MAX_DURATION_SECS }).default(0),
  ...childLimitKeys(),
  /** More children than this from one model turn asks the operator first; absent or 0 = never. */
  confirm_fanout_over: integer({ min: 0, max: 1000 }).optional(),
  runaway: runawaySchema.default(() => ({ on_trip: 'pause_tree' as const })),
  /** Absent: subagent_auto_approve decides (true = "allow", else "deny"); see subagentApprovals.ts. */
  subagent_approvals: oneOf(SUBAGENT_APPROVALS).optional(),
  /** The runtime's receipt of what a child did follows its answer in the parent's tool result; absent = false. */
  child_receipts: boolean().optional(),
  /** Default isolation of children whose agent sets none; absent = "none". */
  isolation: oneOf(ISOLATIONS).optional(),
  /** What happens to an isolated child's changes when it completes; absent = "ask". */
  merge: oneOf(MERGE_MODES).optional(),
}).check((ctx) => {
  // subagent_auto_approve = true is the older spelling of "allow": both set and disagreeing is refused.
  const d = ctx.value;
  if (d.subagent_auto_approve && d.subagent_approvals !== undefined && d.subagent_approvals !== 'allow') {
    const message = t('config:errors.subagentApprovalsConflict', { value: quote(d.subagent_approvals) });
    ctx.issues.push({ code: 'custom', input: d.subagent_approvals, path: ['subagent_approvals'], message });
  }
});

/** The names other entries may refer to, read from the merged tables before parsing. */
export interface ConfigNames {
  providers: string[];
  agents: string[];
  /** `[mcp_servers.<name>]` tables (an agent's mcp_servers must name one). */
  mcpServers?: string[];
}

/** A string entry stands for a bounded target; a table names its mode. The target must be
 * a configured agent (self and repeats are checked in validateAgents.ts). */
const delegateEntrySchema = (names: ConfigNames) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? { agent: v, mode: 'bounded' } : v),
    z
      .custom<RawTable>(isTable, { error: typeError('delegateEntry') })
      .pipe(z.object({ agent: string({ nonEmpty: true, missing: missingKey }), mode: oneOf(DELEGATE_MODES).default('bounded') }))
      .check((ctx) => {
        if (names.agents.includes(ctx.value.agent)) return;
        const message = t('config:errors.unknownAgent', { name: quote(ctx.value.agent), known: knownList(names.agents) });
        ctx.issues.push({ code: 'custom', input: ctx.value, message });
      }),
  );

/** The provider must be configured; left out, it is the only one there is. */
const agentProvider = (names: ConfigNames) =>
  z.preprocess(
    (v) => (v === undefined && names.providers.length === 1 ? names.providers[0] : v),
    // With several providers there is no guessing which one was meant.
    string({ nonEmpty: true, missing: () => t('config:errors.agentProviderMissing', { known: knownList(names.providers) }) }).check(
      (ctx) => {
        // The built-in offline provider is always there by its name (validate.ts adds it).
        if (names.providers.includes(ctx.value) || ctx.value === BUILTIN_OFFLINE_PROVIDER) return;
        const message = t('config:errors.unknownProvider', { name: quote(ctx.value), known: knownList(names.providers) });
        ctx.issues.push({ code: 'custom', input: ctx.value, message });
      },
    ),
  );

/** An agent's `mcp_servers`: each a configured `[mcp_servers.<name>]`. */
const mcpServerNames = (names: ConfigNames) =>
  z.array(string({ nonEmpty: true }), { error: typeError('stringList') }).check((ctx) => {
    const known = names.mcpServers ?? [];
    ctx.value.forEach((name, i) => {
      if (known.includes(name)) return;
      const message = t('config:errors.unknownMcpServer', { name: quote(name), known: knownList(known) });
      ctx.issues.push({ code: 'custom', input: name, path: [i], message });
    });
  });

/** Profiles are names checked against the configured ones (validateAgents.ts). */
/** `runtime = "acp"` agents run an external ACP agent, never a provider: one left out is
 * the built-in offline provider, a placeholder nothing calls. */
const acpWithoutProvider = (v: unknown) =>
  isTable(v) && v.runtime === 'acp' && v.provider === undefined ? { ...v, provider: BUILTIN_OFFLINE_PROVIDER } : v;

const agentSchema = (names: ConfigNames) => z.preprocess(acpWithoutProvider, agentTable(names));

const agentTable = (names: ConfigNames) =>
  table({
    /** "acp": an external ACP agent (command/args/env/cwd) as a delegate target (src/acp/client/). */
    runtime: oneOf(['model', 'acp']).optional(),
    command: string({ nonEmpty: true }).optional(),
    args: stringList().optional(),
    env: stringMap().optional(),
    cwd: string({ nonEmpty: true }).optional(),
    /** true: a process per child; absent/false: one per session, a session per child. */
    per_child: boolean().optional(),
    provider: agentProvider(names),
    system_prompt: string().optional(),
    risk_profile: string({ nonEmpty: true }).optional(),
    runtime_profile: string({ nonEmpty: true }).optional(),
    delegate_same_risk_profile: boolean().optional(),
    delegates: z.array(delegateEntrySchema(names), { error: typeError('delegateList') }).default(() => []),
    enabled: boolean().optional(),
    description: string().optional(),
    /** false: no project context (AGENTS.md) in this agent's system prompt. */
    context: boolean().optional(),
    mcp_servers: mcpServerNames(names).optional(),
    /** Overrides the provider's model (and temperature) for this agent only. */
    model: string({ nonEmpty: true }).optional(),
    temperature: number({ min: 0, max: 2 }).optional(),
    /** Allow-list of tool names (globs): narrows the agent's tools within its risk profile. */
    tools: stringList().optional(),
    /** Absent: [delegation] isolation. */
    isolation: oneOf(ISOLATIONS).optional(),
    ...childLimitKeys(),
  });

/** Project context (AGENTS.md files, config/projectContext.ts): how much of them, in KiB;
 * 0 turns it off. Absent: DEFAULT_CONTEXT_MAX_KB. */
const contextSchema = table({ max_kb: integer({ min: 0, max: 1024 }).optional() });

export const SHOW_REASONING = ['collapsed', 'hidden', 'expanded'] as const;
/** What an absent `[ui] show_reasoning` means (left out of the parsed config, like language). */
export const SHOW_REASONING_DEFAULT: (typeof SHOW_REASONING)[number] = 'collapsed';
const uiSchema = table({
  language: oneOf(SUPPORTED_LANGUAGES).optional(),
  show_reasoning: oneOf(SHOW_REASONING).optional(),
});

/** One command's keys: a key name or a non-empty list of them. */
const keyList = z
  .union([z.string().transform((key) => [key]), z.array(z.string()).min(1)], { error: typeError('keyList') })
  .check((ctx) => {
    const bad = ctx.value.find((key) => !parseKeySpec(key));
    if (bad !== undefined) ctx.issues.push({ code: 'custom', input: bad, message: t('config:errors.badKey', { value: quote(bad) }) });
  });

/** `[keys.<group>] <command> = "ctrl+x"` (or a list of keys). The command is named by the
 * group and the key together, so it is checked over the whole table; an unknown one is an
 * error naming the known commands (not an unknown-key warning), before its value is read. */
const keysSchema = namedTables(z.custom<RawTable>(isTable, { error: typeError('table') })).transform((groups, ctx) => {
  const out: KeyOverrides = {};
  for (const [group, commands] of Object.entries(groups)) {
    for (const [name, value] of Object.entries(commands)) {
      const path = [group, name];
      const id = `${group}.${name}`;
      if (!isKeyCommand(id)) {
        const known = Object.keys(KEY_COMMANDS)
          .filter((c) => c.startsWith(`${group}.`))
          .map((c) => c.slice(group.length + 1));
        const groupsKnown = new Set(Object.keys(KEY_COMMANDS).map((c) => c.split('.')[0]));
        const message = known.length
          ? t('config:errors.unknownKeyCommand', { name: quote(name), known: knownList(known) })
          : t('config:errors.unknownKeyGroup', { name: quote(group), known: knownList(groupsKnown) });
        ctx.issues.push({ code: 'custom', input: value, path, message });
        return z.NEVER;
      }
      const keys = keyList.safeParse(value);
      if (!keys.success) {
        ctx.issues.push({ code: 'custom', input: value, path, message: keys.error.issues[0].message });
        return z.NEVER;
      }
      out[id] = keys.data;
    }
  }
  return out;
});

/** The merged config file, in the order problems are reported: providers, profiles,
 * delegation, ui, agents, default_agent. */
export const configFileSchema = (names: ConfigNames = { providers: [], agents: [] }) =>
  z.object({
    providers: namedTables(providerSchema).default(() => ({})),
    risk_profiles: namedTables(riskProfileSchema).default(() => ({})),
    runtime_profiles: namedTables(runtimeProfileSchema).default(() => ({})),
    delegation: delegationSchema.default(() => delegationSchema.parse({})),
    ui: uiSchema.default(() => ({})),
    keys: keysSchema.optional(),
    context: contextSchema.optional(),
    mcp_servers: mcpServersSchema.optional(),
    agents: namedTables(agentSchema(names)).default(() => ({})),
    default_agent: string({ nonEmpty: true }).optional(),
  });

export type ConfigFile = z.output<ReturnType<typeof configFileSchema>>;
export type ProviderFields = z.output<typeof providerSchema>;
export type PricingFields = z.output<typeof pricingSchema>;
export type RiskProfileFields = z.output<typeof riskProfileSchema>;
export type RuntimeProfileFields = z.output<typeof runtimeProfileSchema>;
export type DelegationFields = z.output<typeof delegationSchema>;
export type RunawayFields = z.output<typeof runawaySchema>;
export type AgentFields = z.output<ReturnType<typeof agentSchema>>;
export type ContextFields = z.output<typeof contextSchema>;
export type DelegateEntryFields = z.output<ReturnType<typeof delegateEntrySchema>>;

export const riskProfileDefaults = (): RiskProfileFields => riskProfileSchema.parse(Object.create(null));
export const runtimeProfileDefaults = (): RuntimeProfileFields => runtimeProfileSchema.parse(Object.create(null));
export const delegationDefaults = (): DelegationFields => delegationSchema.parse(Object.create(null));

/** The object schema under wrappers (optional, default, pipes from the table check). */
function core(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType; out?: z.core.$ZodType };
  if ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable') && def.innerType) return core(def.innerType);
  if (def.type === 'pipe' && def.out) return core(def.out);
  return schema;
}

/** Paths of keys the schema does not know, in document order. Values of the wrong kind
 * are left to validation, which reports them as type errors. */
export function findUnknownKeys(data: unknown, schema: z.core.$ZodType = configFileSchema(), path: KeyPath = []): KeyPath[] {
  const found: KeyPath[] = [];
  const inner = core(schema);
  const def = inner._zod.def as {
    type: string;
    shape?: Record<string, z.core.$ZodType>;
    valueType?: z.core.$ZodType;
    element?: z.core.$ZodType;
  };
  if (def.type === 'object' && def.shape && isTable(data)) {
    for (const [key, child] of Object.entries(data as RawTable)) {
      const sub = def.shape[key];
      if (!sub) found.push([...path, key]);
      else found.push(...findUnknownKeys(child, sub, [...path, key]));
    }
  } else if (def.type === 'record' && def.valueType && isTable(data)) {
    for (const [key, child] of Object.entries(data as RawTable)) found.push(...findUnknownKeys(child, def.valueType, [...path, key]));
  } else if (def.type === 'array' && def.element && Array.isArray(data)) {
    // String entries are values; only table entries can carry unknown keys.
    data.forEach((item, i) => found.push(...findUnknownKeys(item, def.element!, [...path, i])));
  }
  return found;
}

/** The known key a mistyped one most likely meant (`temprature` → `temperature`), among
 * the keys of the table it sits in; undefined when none is close. */
export function suggestKey(path: KeyPath, schema: z.core.$ZodType = configFileSchema()): string | undefined {
  return nearestKey(String(path[path.length - 1]), knownKeysBeside(path, schema, core));
}
