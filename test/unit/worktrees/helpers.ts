// Fixtures for isolated children (issue #23): a runtime wired as the CLI wires it, with its
// own ARBOR_HOME (worktrees go there), a real git repository as its workspace, and agents
// scripted on one loopback model.
import { cleanedUpAfterTest } from '../../helpers/runtimeFixture.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extraServicesFor, extraToolsFor } from '../../../src/cli/extraTools.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { createRuntime, type RuntimeSinks } from '../../../src/runtime/runtime.js';
import type { Run } from '../../../src/model/run.js';
import { ENV, agent, startScriptedAgents, toml, type DelegateFixture, type Responder } from '../delegate/helpers.js';
import type { LoopbackReply } from '../../support/loopbackModel.js';

/** a.txt as every fixture repository starts (unless the test gives its own files). */
export const A = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
/** A shell command editing a.txt in place. */
export const sed = (expr: string) => `sed -i '${expr}' a.txt`;
/** A model reply that fails the child (HTTP 500, retries off). */
export const fail500 = () => ({ kind: 'status' as const, status: 500, body: JSON.stringify({ error: { message: 'boom upstream' } }) });

export const worker = (alias: string, extra = '') => agent(alias, `risk_profile = "trusted"\nruntime_profile = "agentic"\n${extra}`);

/** main delegates to w1, w2 (and lead, which may delegate to w1); children's asks are allowed. */
export const isoConfig =
  (delegation = '', agents = '') =>
  (url: string) =>
    toml(
      url,
      agent('main', 'risk_profile = "trusted"\nruntime_profile = "agentic"\ndelegates = ["w1", "w2", "lead"]') +
        worker('w1') +
        worker('w2') +
        worker('lead', 'delegates = ["w1"]') +
        agents +
        `\n[delegation]\nsubagent_approvals = "allow"\n${delegation}\n`,
    );

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@x',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@x',
    },
  });
}

export function gitRepo(dir: string, files: Record<string, string>): void {
  git(dir, 'init', '-q');
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
}

export async function isoFixture(opts: {
  /** The config's text for the model server's URL and the workspace folder. */
  config: (url: string, workdir: string) => string;
  agents: Record<string, Responder>;
  home?: string;
  files?: Record<string, string> | false;
  /** What the CLI would write to the trace log and the session file. */
  sinks?: RuntimeSinks;
}): Promise<DelegateFixture> {
  const { server, byAgent } = await startScriptedAgents(opts.agents);
  const home = opts.home ?? mkdtempSync(join(tmpdir(), 'arbor-wt-home-'));
  // Real paths: git reports them, and the tests compare.
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-wt-cwd-')));
  if (opts.files !== false) gitRepo(workdir, opts.files ?? { 'a.txt': A });
  const loaded = loadConfigFromTexts([{ text: opts.config(server.url, workdir), file: join(workdir, 'config.toml') }], ENV);
  const runtime = createRuntime({
    config: loaded.config,
    cwd: workdir,
    interactive: false,
    env: ENV,
    arborHome: home,
    extraTools: extraToolsFor(loaded.config, home),
    extraServices: extraServicesFor(loaded.config, home),
    ...(opts.sinks ? { sinks: opts.sinks } : {}),
  });
  return cleanedUpAfterTest<DelegateFixture>({
    server,
    runtime,
    home,
    workdir,
    requestsOf: (alias) => byAgent.get(alias) ?? [],
    async cleanup() {
      await runtime.dispose();
      await server.close();
      rmSync(workdir, { recursive: true, force: true });
      if (!opts.home) rmSync(home, { recursive: true, force: true });
    },
  });
}

export const shell = (id: string, command: string) => ({ id, name: 'shell', args: { command } });
export const tools = (...calls: Array<{ id: string; name: string; args: object }>): LoopbackReply => ({ kind: 'tools', calls });

export function runsOf(fx: DelegateFixture, alias: string): Run[] {
  return fx.runtime.store
    .getState()
    .runs.values()
    .filter((r) => r.alias === alias);
}

/** Branches arbor made (arbor/...) and worktrees under the home. */
export function leftovers(fx: DelegateFixture): { branches: string[]; worktrees: string[]; dirs: string[] } {
  const branches = git(fx.workdir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/arbor/').split('\n').filter(Boolean);
  const worktrees = git(fx.workdir, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice(9))
    .filter((p) => p !== fx.workdir);
  let dirs: string[];
  try {
    dirs = readdirSync(join(fx.home, 'worktrees'));
  } catch {
    dirs = [];
  }
  return { branches, worktrees, dirs };
}
