// Folder trust, decided before any config is applied: a folder's own settings
// (config/projectSettings.ts) are loaded only when the user trusts it — recorded in
// $ARBOR_HOME/trust.json with the hash of what they trusted, for this run with
// --trust-project, or by answering the prompt the chat shows first. Otherwise they are left
// out whole (no MCP server, provider, agent, profile or default_agent of theirs), the
// headless run says so on stderr and the chat in its status bar, a notice and /context.
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { t } from '../i18n/index.js';
import { readProjectSettings, type ProjectSettings } from '../config/projectSettings.js';
import { trustActionLines } from '../config/trustText.js';
import { formatConfigError, type ProjectLayers } from '../config/load.js';
import { ConfigError, type LoadedConfig } from '../config/types.js';
import { recordTrust, revokeTrust, trustRecord } from '../persistence/trustFile.js';
import type { ProjectTrustState } from '../model/state.js';
import { neutralize } from '../text/untrusted.js';

export type AskTrust = (folder: string, lines: string[]) => Promise<'trust' | 'skip' | 'quit'>;

export interface TrustOutcome {
  /** What loadConfig takes (undefined: the folder has no settings of its own). */
  layers?: ProjectLayers;
  state?: ProjectTrustState;
  settings?: ProjectSettings;
  /** The user chose to quit at the prompt. */
  quit?: boolean;
  /** Said once at start (the chat's notices, headless stderr). */
  notices: string[];
}

function texts(s: ProjectSettings): ProjectLayers {
  return { mode: 'texts', ...(s.config ? { config: s.config } : {}), agentFiles: s.agentFiles, warnings: s.warnings };
}

/** Trusted as recorded: the same folder with the same settings. */
export function isTrusted(home: string, s: ProjectSettings): boolean {
  return trustRecord(home, s.folder)?.hash === s.hash;
}

export async function decideProjectTrust(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  home: string;
  /** --trust-project: trusted for this run, not recorded. */
  trustFlag: boolean;
  /** The chat's prompt; absent (headless): untrusted settings are ignored. */
  ask?: AskTrust;
}): Promise<TrustOutcome> {
  const settings = readProjectSettings(opts.cwd, opts.env);
  if (!settings) return { notices: [] };
  const trusted: TrustOutcome = { layers: texts(settings), state: 'trusted', settings, notices: [] };
  if (opts.trustFlag || isTrusted(opts.home, settings)) return trusted;
  const folder = neutralize(settings.folder);
  const lines = trustActionLines(settings.actions);
  if (opts.ask) {
    const choice = await opts.ask(folder, lines);
    if (choice === 'quit') return { quit: true, notices: [] };
    if (choice === 'trust') {
      try {
        recordTrust(opts.home, settings.folder, settings.hash);
      } catch (err) {
        trusted.notices.push(t('trust:command.failed', { error: neutralize((err as Error).message) }));
      }
      return trusted;
    }
    return { layers: { mode: 'exclude' }, state: 'untrusted', settings, notices: [t('trust:status.notice', { folder })] };
  }
  const warning = [t('trust:headless.ignored', { folder }), ...lines.map((l) => `  - ${l}`)].join('\n');
  return { layers: { mode: 'exclude' }, state: 'untrusted', settings, notices: [warning] };
}

/** The loaded config marked with the decision, its notices first among the warnings. */
export function withTrust(loaded: LoadedConfig, trust: TrustOutcome): LoadedConfig {
  return trust.state ? { ...loaded, projectTrust: trust.state, warnings: [...trust.notices, ...loaded.warnings] } : loaded;
}

/** The doctor's decision (never a prompt): unreadable project settings are left out, the
 * problem said among its warnings. */
export async function doctorTrust(cwd: string, env: NodeJS.ProcessEnv, home: string): Promise<TrustOutcome> {
  try {
    return await decideProjectTrust({ cwd, env, home, trustFlag: false });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { layers: { mode: 'exclude' }, notices: [formatConfigError(err)] };
  }
}

/** `arbor trust` on the process's streams; a bad agents folder is a config error (exit 2). */
export function runTrustCommand(opts: { path?: string; revoke: boolean; cwd: string; env: NodeJS.ProcessEnv; home: string }): number {
  try {
    return trustCommand(opts, process.stdout, process.stderr);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${t('cli:configErrorPrefix', { message: neutralize(formatConfigError(err)) })}\n`);
    return 2;
  }
}

/** `arbor trust [path]` / `arbor trust --revoke [path]`: prints what it did; the exit code. */
export function trustCommand(
  opts: { path?: string; revoke: boolean; cwd: string; env: NodeJS.ProcessEnv; home: string },
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): number {
  const target = resolve(opts.cwd, opts.path ?? '.');
  let isDir: boolean;
  try {
    isDir = statSync(target).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    err.write(`${t('cli:usageErrorPrefix', { message: t('trust:cli.noFolder', { path: neutralize(target) }) })}\n`);
    return 2;
  }
  const folder = realpathSync(target);
  const shown = neutralize(folder);
  if (opts.revoke) {
    out.write(`${t(revokeTrust(opts.home, folder) ? 'trust:cli.revoked' : 'trust:cli.notTrusted', { folder: shown })}\n`);
    return 0;
  }
  const settings = readProjectSettings(folder, opts.env);
  if (!settings) {
    out.write(`${t('trust:cli.none', { folder: shown })}\n`);
    return 0;
  }
  recordTrust(opts.home, settings.folder, settings.hash);
  out.write(`${[t('trust:cli.trusted', { folder: shown }), ...trustActionLines(settings.actions).map((l) => `  - ${l}`)].join('\n')}\n`);
  return 0;
}

/** What /trust shows and does in the chat: the folder as it is on disk now, against what
 * this session applied. */
export function chatTrust(opts: { cwd: string; env: NodeJS.ProcessEnv; home: string; applied?: ProjectTrustState }) {
  return {
    status(): { kind: 'none' | 'trusted' | 'untrusted'; lines: string[]; applied: boolean } {
      const applied = opts.applied === 'trusted';
      const s = readProjectSettings(opts.cwd, opts.env);
      if (!s) return { kind: 'none', lines: [], applied };
      return { kind: isTrusted(opts.home, s) ? 'trusted' : 'untrusted', lines: trustActionLines(s.actions), applied };
    },
    trust(): string {
      const s = readProjectSettings(opts.cwd, opts.env);
      if (!s) return t('trust:command.none');
      recordTrust(opts.home, s.folder, s.hash);
      return t('trust:command.didTrust', { folder: neutralize(s.folder) });
    },
    revoke(): string {
      const folder = realpathSync(opts.cwd);
      return t(revokeTrust(opts.home, folder) ? 'trust:command.didRevoke' : 'trust:command.notTrusted', { folder: neutralize(folder) });
    },
  };
}

export type ChatTrust = ReturnType<typeof chatTrust>;
