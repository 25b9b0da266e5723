// The commented starter config `arbor init` writes. Loading it gives the same setup as
// the built-in starter used when there is no config (a test holds the two together), with
// one documented deviation: STARTER_DEVIATIONS.
import { makePrivateDir, writePrivate } from '../persistence/privateFs.js';
import { dirname } from 'node:path';
import { t } from '../i18n/index.js';
import { fileError } from './errors.js';
import {
  DEFAULT_AGENT_ALIAS,
  DEFAULT_MAX_REPLY_KB,
  OFFLINE_MODEL,
  OFFLINE_PROVIDER,
  STARTER_AGENTIC_PROFILE,
  STARTER_AGENTS,
  STARTER_ORCHESTRATOR_PROFILE,
  STARTER_RISK_PROFILE,
  defaultDelegation,
  defaultRiskProfile,
  defaultRuntimeProfile,
} from './defaults.js';
import { formatDelegates, tomlInline, tomlString } from './tomlFormat.js';

/** Settings the starter file deliberately sets away from the built-in defaults, each said
 * in a comment beside it: receipts stay off by default (the reference documents' output
 * contracts hold byte for byte), while a new config shows them on (issue #27). */
export const STARTER_DEVIATIONS = { delegation: { child_receipts: true } } as const;

function agentSection(agent: (typeof STARTER_AGENTS)[number]): string {
  return [
    `[agents.${agent.alias}]`,
    `provider = ${tomlString(OFFLINE_PROVIDER)}`,
    `description = ${tomlString(agent.description)}`,
    `risk_profile = ${tomlString(STARTER_RISK_PROFILE)}`,
    `runtime_profile = ${tomlString(agent.runtime_profile)}`,
    'delegate_same_risk_profile = true   # peers on the same risk profile are reachable',
    formatDelegates(agent.delegates.map((name) => ({ agent: name, mode: 'bounded' as const }))),
    'enabled = true',
    `system_prompt = ${tomlString(agent.system_prompt)}`,
  ].join('\n');
}

const COMMENT_COLUMN = 36;

/** Lines the template writes as `code  # note` get their notes lined up in one column. */
function alignComments(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const m = /^(.*?\S)\s{2,}(# .*)$/.exec(line);
      return m ? `${m[1].padEnd(COMMENT_COLUMN - 1)} ${m[2]}` : line;
    })
    .join('\n');
}

/** Commented TOML. Commented-out lines are valid config as written once uncommented. */
export function starterConfigToml(): string {
  return alignComments(starterTemplate());
}

function starterTemplate(): string {
  const risk = defaultRiskProfile(STARTER_RISK_PROFILE);
  const runtime = defaultRuntimeProfile(STARTER_AGENTIC_PROFILE);
  const d = defaultDelegation();
  return `# arbor configuration, written by \`arbor init\`.
# Files are layered, later ones winning: built-in defaults, then $ARBOR_HOME/config.toml,
# then .arbor/config.toml in the working directory, then the file given with --config.
# Keys arbor does not know are reported when it starts, so typos do not go unnoticed.

default_agent = ${tomlString(DEFAULT_AGENT_ALIAS)}

# [ui]
# language = "es"                  # en | es; the default follows LANG

# Providers ------------------------------------------------------------------
# The built-in offline model needs no network and no key. The README says what it
# can do; point the agents below at a real provider to chat with a model.

[providers.${OFFLINE_PROVIDER}]
type = "offline"
model = ${tomlString(OFFLINE_MODEL)}

# Any OpenAI-compatible server: Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter.
# [providers.local]
# type = "openai-compatible"
# base_url = "http://127.0.0.1:11434/v1"
# model = "qwen3:8b"
# api_key_env = "OLLAMA_API_KEY"   # the NAME of the variable holding the key, never the key
# temperature = 0.2                # 0 to 2
# max_tokens = 4096
# first_byte_timeout_secs = 60     # wait this long for a reply to start, then retry
# idle_timeout_secs = 120          # longest silence inside a streaming reply
# headers = { "X-Title" = "arbor" }
# pricing = { input_per_mtok = 0.0, output_per_mtok = 0.0 }   # USD per million tokens

# [providers.openai]
# type = "openai"
# model = "gpt-4.1-mini"
# api_key_env = "OPENAI_API_KEY"

# [providers.anthropic]
# type = "anthropic"
# model = "claude-sonnet-4-5"
# api_key_env = "ANTHROPIC_API_KEY"

# Agents ---------------------------------------------------------------------
# main talks to you and hands work to the two specialists. To use a real model,
# change provider = "${OFFLINE_PROVIDER}" to the name of a provider above.
# A delegates entry's mode is "bounded" (the caller's tools are the ceiling) or
# "independent" (the target's own tools and budget).

${STARTER_AGENTS.map(agentSection).join('\n\n')}

# Risk profiles: what an agent may do. Profile "default" always exists.
[risk_profiles.${STARTER_RISK_PROFILE}]
delegation_policy = { mode = "allow" }   # the default is "forbidden"
# allowed_tools = ${tomlInline(risk.allowed_tools)}                # empty = every tool
# excluded_tools = ${tomlInline(risk.excluded_tools)}
# deny_all_tools = ${risk.deny_all_tools}
# auto_approve = ${tomlInline(risk.auto_approve)}
# always_ask = ${tomlInline(risk.always_ask)}
# allowed_roots = ${tomlInline(risk.allowed_roots)}
# forbidden_paths = ${tomlInline(risk.forbidden_paths)}
# allowed_commands = ${tomlInline(risk.allowed_commands)}             # empty = any command, with approval
# shell_env_passthrough = ["GITHUB_TOKEN"]   # secret variables tools may still see; every api_key_env
#                                            # and *_KEY / *_TOKEN / *_SECRET variable is removed otherwise
# max_actions_per_hour = ${risk.max_actions_per_hour}             # 0 = no limit
# max_cost_per_day_cents = ${risk.max_cost_per_day_cents}           # 0 = no limit

# Runtime profiles: how an agent runs. Profile "default" always exists.
[runtime_profiles.${STARTER_ORCHESTRATOR_PROFILE}]
max_tool_iterations = 10
parallel_tools = true              # fan-out tool calls run concurrently
# shell_timeout_secs = 60
# max_reply_kb = ${DEFAULT_MAX_REPLY_KB}               # most of one reply kept, shown and saved; the rest is dropped, with a note
# max_execution_tree_iterations = 40   # budget for a whole turn's tree; omit for none (0 is invalid)

[runtime_profiles.${STARTER_AGENTIC_PROFILE}]
agentic = true                    # false: a delegate target makes one model call, no tools
max_delegation_depth = ${runtime.max_delegation_depth}           # 1 to 10
# delegation_timeout_secs = 120
# agentic_timeout_secs = 300

# Limits for child agents.
[delegation]
max_concurrent = ${d.max_concurrent}                 # children running at once; more wait in a queue
max_children_per_agent = ${d.max_children_per_agent}         # live children per parent run; more are refused
archive_after_minutes = ${d.archive_after_minutes}         # finished runs leave the live list this long after ending
subagent_auto_approve = ${d.subagent_auto_approve}      # children have no operator: calls needing approval are denied
# subagent_approvals = "ask"       # "deny" (default) | "ask": the operator answers children's asks | "allow" (= subagent_auto_approve = true)
run_timeout_secs = ${d.run_timeout_secs}               # per child; 0 = none; paused time does not count
# max_child_tokens = 200_000       # per child and its subtree; also per agent ([agents.<alias>]), the smaller wins
# max_child_cost_cents = 50        # per child and its subtree (needs the provider's pricing)
# max_child_seconds = 600          # per child, active time (paused time does not count)
# confirm_fanout_over = 4          # ask before one model turn starts more children than this; 0 = never
# The built-in default is false so the reference output contracts stay byte for byte; the starter turns it on:
child_receipts = true              # after a child's answer the parent model reads what the runtime saw it do (tool calls, files, commands)

# The runaway guard watches each tree; omitted thresholds are off.
# [delegation.runaway]
# max_tree_size = 50
# max_spawns_per_minute = 30
# max_tree_tokens = 2_000_000
# max_tree_cost_cents = 500
# on_trip = "pause_tree"           # pause_spawning | pause_tree | kill_tree
`;
}

function writeFailed(err: unknown, path: string): never {
  const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  throw fileError(t('config:errors.writeFailed', { reason }), path);
}

/** Writes the starter config unless the file already exists; never overwrites. */
export function writeStarterConfig(path: string): { path: string; created: boolean } {
  try {
    makePrivateDir(dirname(path));
  } catch (err) {
    // EEXIST here means a file sits where the folder should be, not that the config exists.
    writeFailed(err, path);
  }
  try {
    // 'wx' fails if the file exists, so there is no window for a race to overwrite it.
    writePrivate(path, starterConfigToml(), 'wx');
    return { path, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { path, created: false };
    return writeFailed(err, path);
  }
}
