// The set of keys arbor understands, used to warn about the ones it does not (usually
// typos like "temprature", which would otherwise be ignored silently).
import { isTable, type RawTable } from './merge.js';
import type { KeyPath } from './errors.js';

type Shape =
  | { kind: 'value' }
  | { kind: 'table'; fields: Record<string, Shape> }
  /** A table whose keys are names chosen by the user (providers, agents, headers, ...). */
  | { kind: 'map'; of: Shape }
  | { kind: 'list'; of: Shape };

const value: Shape = { kind: 'value' };
const table = (fields: Record<string, Shape>): Shape => ({ kind: 'table', fields });
const fieldsOf = (...names: string[]): Record<string, Shape> => Object.fromEntries(names.map((n) => [n, value]));

const providerShape = table({
  ...fieldsOf('type', 'base_url', 'model', 'api_key_env', 'temperature', 'max_tokens', 'timeout_secs'),
  ...fieldsOf('first_byte_timeout_secs', 'idle_timeout_secs'),
  headers: { kind: 'map', of: value },
  pricing: table(fieldsOf('input_per_mtok', 'output_per_mtok')),
});

const agentShape = table({
  ...fieldsOf('provider', 'system_prompt', 'risk_profile', 'runtime_profile', 'description'),
  ...fieldsOf('delegate_same_risk_profile', 'enabled'),
  // String entries are values; only object entries can carry unknown keys.
  delegates: { kind: 'list', of: table(fieldsOf('agent', 'mode')) },
});

const riskShape = table({
  ...fieldsOf('allowed_tools', 'excluded_tools', 'deny_all_tools', 'auto_approve', 'always_ask'),
  ...fieldsOf('allowed_roots', 'forbidden_paths', 'allowed_commands', 'max_actions_per_hour'),
  ...fieldsOf('max_cost_per_day_cents', 'shell_env_passthrough'),
  delegation_policy: table(fieldsOf('mode')),
});

const runtimeShape = table(
  fieldsOf(
    'max_tool_iterations',
    'parallel_tools',
    'shell_timeout_secs',
    'max_execution_tree_iterations',
    'agentic',
    'max_delegation_depth',
    'delegation_timeout_secs',
    'agentic_timeout_secs',
    'max_reply_kb',
  ),
);

const delegationShape = table({
  ...fieldsOf('max_concurrent', 'max_children_per_agent', 'archive_after_minutes'),
  ...fieldsOf('subagent_auto_approve', 'run_timeout_secs'),
  runaway: table(fieldsOf('max_tree_size', 'max_spawns_per_minute', 'max_tree_tokens', 'max_tree_cost_cents', 'on_trip')),
});

export const CONFIG_SHAPE: Shape = table({
  default_agent: value,
  providers: { kind: 'map', of: providerShape },
  agents: { kind: 'map', of: agentShape },
  risk_profiles: { kind: 'map', of: riskShape },
  runtime_profiles: { kind: 'map', of: runtimeShape },
  delegation: delegationShape,
  ui: table(fieldsOf('language')),
  // Checked by validation, which names an unknown command as an error, not a warning.
  keys: { kind: 'map', of: { kind: 'map', of: value } },
});

/** Paths of keys the schema does not know, in document order. Values of the wrong kind
 * are left to validation, which reports them as type errors. */
export function findUnknownKeys(data: unknown, shape: Shape = CONFIG_SHAPE, path: KeyPath = []): KeyPath[] {
  const found: KeyPath[] = [];
  if (shape.kind === 'table' && isTable(data)) {
    for (const [key, child] of Object.entries(data as RawTable)) {
      const sub = shape.fields[key];
      if (!sub) found.push([...path, key]);
      else found.push(...findUnknownKeys(child, sub, [...path, key]));
    }
  } else if (shape.kind === 'map' && isTable(data)) {
    for (const [key, child] of Object.entries(data as RawTable)) found.push(...findUnknownKeys(child, shape.of, [...path, key]));
  } else if (shape.kind === 'list' && Array.isArray(data)) {
    data.forEach((item, i) => found.push(...findUnknownKeys(item, shape.of, [...path, i])));
  }
  return found;
}
