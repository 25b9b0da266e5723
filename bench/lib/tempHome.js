// Throwaway ARBOR_HOME, HOME and working directory, so a benchmark never reads the user's
// config, sessions or API keys, and leaves nothing behind.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function tempArborHome(prefix = 'arbor-bench-') {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, 'arbor-home');
  const userHome = join(root, 'home');
  const cwd = join(root, 'work');
  for (const d of [home, userHome, cwd]) mkdirSync(d, { recursive: true });
  // Only what arbor needs: no API key of the person running the benchmark leaks in, so with
  // no config the built-in offline provider is used.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ARBOR_HOME: home,
    HOME: userHome,
    LANG: 'en_US.UTF-8',
    TERM: 'xterm-256color',
  };
  return {
    root,
    home,
    cwd,
    env,
    /** Writes <cwd>/.arbor/config.toml. */
    writeProjectConfig(toml) {
      const file = join(cwd, '.arbor', 'config.toml');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, toml);
      return file;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A config that points the default agent at an OpenAI-compatible loopback server. */
export function loopbackConfig(url, extra = '') {
  return [
    'default_agent = "main"',
    '',
    '[providers.fake]',
    'type = "openai-compatible"',
    `base_url = "${url}"`,
    'model = "fake-model"',
    '',
    '[agents.main]',
    'provider = "fake"',
    extra,
    '',
  ].join('\n');
}
