// Builders for tool tests: a permissive risk profile, a runtime profile and a ToolContext.
import type { ArborConfig, RiskProfile, RuntimeProfile } from '../../../src/config/types.js';
import type { DiffDisplay } from '../../../src/model/toolDisplay.js';
import type { ActionTracker, ToolCaller, ToolContext } from '../../../src/tools/types.js';
import { createActionTracker } from '../../../src/tools/actionTracker.js';

export function risk(overrides: Partial<RiskProfile> = {}): RiskProfile {
  return {
    name: 'test',
    allowed_tools: [],
    excluded_tools: [],
    deny_all_tools: false,
    auto_approve: [],
    always_ask: [],
    allowed_roots: ['.'],
    forbidden_paths: [],
    allowed_commands: [],
    shell_env_passthrough: [],
    max_actions_per_hour: 0,
    max_cost_per_day_cents: 0,
    delegation_policy: { mode: 'forbidden' },
    ...overrides,
  };
}

export function runtime(overrides: Partial<RuntimeProfile> = {}): RuntimeProfile {
  return {
    name: 'test',
    max_tool_iterations: 10,
    parallel_tools: false,
    shell_timeout_secs: 60,
    agentic: false,
    max_delegation_depth: 1,
    ...overrides,
  };
}

export function caller(r: RiskProfile = risk(), rt: RuntimeProfile = runtime()): ToolCaller {
  return {
    alias: 'main',
    risk: r,
    runtime: rt,
    isSubagent: false,
    delegationDepth: 0,
    delegationDepthLimit: 1,
    callerChain: ['main'],
  };
}

/** Only the parts of the config the built-in tools never read are left out. */
export const config = { delegation: { subagent_auto_approve: false } } as unknown as ArborConfig;

export function context(opts: {
  cwd: string;
  risk?: RiskProfile;
  runtime?: RuntimeProfile;
  signal?: AbortSignal;
  tracker?: ActionTracker;
}): ToolContext {
  const r = opts.risk ?? risk();
  return {
    runId: 'run-1',
    toolCallId: 'call-1',
    signal: opts.signal ?? new AbortController().signal,
    caller: caller(r, opts.runtime ?? runtime()),
    config,
    cwd: opts.cwd,
    tracker: opts.tracker ?? createActionTracker(r),
    services: undefined,
  };
}

/** The rewrite both write_file's run and its preview are checked on: `notes.txt` from
 * `before` to `after`, and the diff display either must give for it, spelled out once. */
export const NOTES_REWRITE: { path: string; before: string; after: string; display: DiffDisplay } = {
  path: 'notes.txt',
  before: 'one\ntwo\nthree\n',
  after: 'one\n2\nthree\nfour\n',
  display: {
    kind: 'diff',
    path: 'notes.txt',
    added: 2,
    removed: 1,
    hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: [' one', '-two', '+2', ' three', '+four'] }],
  },
};
