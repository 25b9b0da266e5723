// Fixtures for isolated children (issue #23): a runtime wired as the CLI wires it, with its
// own ARBOR_HOME (worktrees go there), a real git repository as its workspace, and agents
// scripted on one loopback model.
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { onTestFinished } from 'vitest';
import { git, gitRepo } from '../../helpers/git.js';
import { join } from 'node:path';
import { type RuntimeSinks } from '../../../src/runtime/sinks.js';
import type { Run } from '../../../src/model/run.js';
import { agent, callsThenDone, delegateCall, scriptedRuntime, toml, type DelegateFixture, type Responder } from '../delegate/helpers.js';
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

export { git, gitRepo } from '../../helpers/git.js';

export function isoFixture(opts: {
  /** The config's text for the model server's URL and the workspace folder. */
  config: (url: string, workdir: string) => string;
  agents: Record<string, Responder>;
  home?: string;
  files?: Record<string, string> | false;
  /** What the CLI would write to the trace log and the session file. */
  sinks?: RuntimeSinks;
}): Promise<DelegateFixture> {
  return scriptedRuntime({
    name: 'wt',
    config: opts.config,
    agents: opts.agents,
    home: opts.home,
    workspace: (dir) => {
      // Real paths: git reports them, and the tests compare.
      const real = realpathSync(dir);
      if (opts.files !== false) gitRepo(real, opts.files ?? { 'a.txt': A });
      return real;
    },
    runtime: (_config, { home }) => ({ arborHome: home, ...(opts.sinks ? { sinks: opts.sinks } : {}) }),
  });
}

/** merge = "auto": main delegates once with `args` in a worktree of its own, then answers "done";
 * `agents` script the children. */
export function autoMergeFixture(args: object, agents: Record<string, Responder>): Promise<DelegateFixture> {
  return isoFixture({
    config: isoConfig('merge = "auto"'),
    agents: { main: callsThenDone(delegateCall({ ...args, isolation: 'worktree' })), ...agents },
  });
}

/** A temp folder (its real path: git and the tools print real paths), removed when the test
 * ends; made before a fixture that uses it, it outlives that fixture's clean-up. */
export function tempDirForTest(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
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
