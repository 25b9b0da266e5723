// A throwaway ARBOR_HOME, HOME and working directory, so no test or benchmark reads the
// user's real ~/.arbor, sessions or API keys, and nothing is left behind.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface ArborHome {
  /** The temp folder holding the three below; `cleanup()` removes it. */
  root: string;
  /** The working directory to start arbor in (its ./.arbor/config.toml is the project config). */
  dir: string;
  /** ARBOR_HOME: sessions, logs and the user config live here. */
  home: string;
  /** Only what arbor needs: no variable of the person running the suite leaks in. */
  env: Record<string, string>;
  cleanup(): void;
}

export interface TempHomeOptions {
  /** Prefix of the temp folder's name (shows who left it behind, should one survive). */
  prefix?: string;
  /**
   * Test timings (default): the offline provider answers without its typing delay and
   * retries back off from 20 ms, so tests do not wait. A benchmark passes false to measure
   * arbor as a user runs it.
   */
  fastTimings?: boolean;
}

export function tempArborHome({ prefix = 'arbor-e2e-', fastTimings = true }: TempHomeOptions = {}): ArborHome {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, 'arbor-home');
  const userHome = join(root, 'home');
  const dir = join(root, 'work');
  for (const d of [userHome, dir]) mkdirSync(d, { recursive: true });
  // As arbor itself creates it: private. A 0755 home would be tightened at start, with a notice.
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ARBOR_HOME: home,
    HOME: userHome,
    LANG: 'en_US.UTF-8',
    TERM: 'xterm-256color',
    ...(fastTimings ? { ARBOR_OFFLINE_DELAY_MS: '0', ARBOR_RETRY_BASE_MS: '20' } : {}),
  };
  return { root, dir, home, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Writes `<dir>/.arbor/config.toml`; returns its path. */
export function writeConfig(dir: string, toml: string): string {
  const path = join(dir, '.arbor', 'config.toml');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, toml);
  return path;
}

/** Config pointing the default agent at an OpenAI-compatible server (the loopback model);
 * `agentExtra` is appended to the [agents.main] table. */
export function fakeProviderConfig(baseUrl: string, model = 'fake-model', agentExtra = ''): string {
  return [
    'default_agent = "main"',
    '',
    '[providers.fake]',
    'type = "openai-compatible"',
    `base_url = "${baseUrl}"`,
    `model = "${model}"`,
    '',
    '[agents.main]',
    'provider = "fake"',
    ...(agentExtra ? [agentExtra] : []),
    '',
  ].join('\n');
}
