// Fixtures for the observed-effects ledger: a delegating main agent, workers that may run
// shell commands without an operator, and a git work tree to run them in.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoopbackReply } from '../../support/loopbackModel.js';
import { agent, toml } from '../delegate/helpers.js';

export const trusted = (alias: string, extra = '') => agent(alias, `risk_profile = "trusted"\n${extra}`);

/** main delegates; `worker` (agentic) runs tools; children's asks are allowed. */
export const ledgerConfig =
  (receipts: boolean, extra = '') =>
  (url: string) =>
    toml(
      url,
      trusted('main', 'runtime_profile = "agentic"') +
        trusted('worker', 'runtime_profile = "agentic"') +
        trusted('helper', 'runtime_profile = "agentic"') +
        `\n[delegation]\nsubagent_approvals = "allow"\nchild_receipts = ${receipts}\n${extra}`,
    );

export function gitInit(dir: string, files: Record<string, string>): void {
  const g = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      stdio: 'ignore',
      env: { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' },
    });
  g('init', '-q');
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  g('add', '-A');
  g('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init');
}

export const shellCall = (id: string, command: string) => ({ id, name: 'shell', args: { command } });
export const tools = (...calls: Array<{ id: string; name: string; args: object }>): LoopbackReply => ({ kind: 'tools', calls });
