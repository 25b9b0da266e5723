// Shared helpers for the config tests (not a test file itself).
import { expect } from 'vitest';
import type { DelegationConfig, LoadedConfig } from '../../../src/config/types.js';
import { ConfigError } from '../../../src/config/configError.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';

export const FILE = '/x/.arbor/config.toml';

/** A minimal valid setup the error tests add one bad key to. */
export const BASE = `
[providers.local]
type = "openai-compatible"
base_url = "http://127.0.0.1:11434/v1"
model = "qwen3:8b"

[agents.main]
provider = "local"
`;

/** [delegation] as written out by hand: what a config that does not set it gets, both from
 * defaultDelegation() and from loading. */
export const DEFAULT_DELEGATION: DelegationConfig = {
  max_concurrent: 8,
  max_children_per_agent: 5,
  archive_after_minutes: 60,
  subagent_auto_approve: false,
  run_timeout_secs: 0,
  runaway: { on_trip: 'pause_tree' },
};

export function load(text: string, env: NodeJS.ProcessEnv = {}, file = FILE): LoadedConfig {
  return loadConfigFromTexts([{ file, text }], env);
}

/** Runs fn, asserts it throws a ConfigError, and returns it. */
export function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

export function loadError(text: string, file = FILE): ConfigError {
  return configErrorOf(() => load(text, {}, file));
}
