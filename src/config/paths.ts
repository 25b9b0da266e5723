// Where arbor keeps its state and where it looks for config files.
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The user's home directory, preferring the given environment so tests can point it
 * elsewhere without touching the real one. */
export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOME || env.USERPROFILE || homedir();
}

/** Expands a leading `~` (a quoted `ARBOR_HOME="~/x"` reaches us unexpanded). */
export function expandHome(path: string, env: NodeJS.ProcessEnv = process.env): string {
  if (path === '~') return homeDir(env);
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(homeDir(env), path.slice(2));
  return path;
}

/** `$ARBOR_HOME`, or `~/.arbor`. All state (sessions, logs, task records) lives under it. */
export function arborHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.ARBOR_HOME?.trim();
  if (fromEnv) return resolve(expandHome(fromEnv, env));
  return join(homeDir(env), '.arbor');
}

/** Where copies and exports of transcript text go: $ARBOR_HOME/exports, or the system temp
 * folder when ARBOR_HOME is not set (the runtime writes them, RuntimeApi.exportText). */
export function exportDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.ARBOR_HOME?.trim() ? join(arborHome(env), 'exports') : tmpdir();
}

/** The user-wide config file: `$ARBOR_HOME/config.toml`. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(arborHome(env), 'config.toml');
}

/** The per-project config file: `<cwd>/.arbor/config.toml`. */
export function projectConfigPath(cwd: string): string {
  return join(resolve(cwd), '.arbor', 'config.toml');
}
