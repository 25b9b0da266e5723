// When arbor's process exits while a shell tool call is running, nothing the call started
// survives it: not the process group, not a setsid'd child, not a double-forked one. Runs
// the tsc output in build/ (npm run build first, like the rest of the e2e suite) in a child
// node that starts such a call and then exits.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';
import { alive, killToolProcesses } from '../support/procs.js';

let work: string | undefined;
const pids: number[] = [];

afterEach(() => {
  // A failing run must not leave sleepers behind: each one and its whole process group.
  killToolProcesses(pids.splice(0));
  if (work) rmSync(work, { recursive: true, force: true });
  work = undefined;
});

const script = (dir: string) => `
import { existsSync } from 'node:fs';
import { shellTool } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'build', 'tools', 'shell.js')).href)};
const risk = { name: 'r', allowed_tools: [], excluded_tools: [], deny_all_tools: false, auto_approve: [], always_ask: [],
  allowed_roots: ['.'], forbidden_paths: [], allowed_commands: [], shell_env_passthrough: [], max_actions_per_hour: 0,
  max_cost_per_day_cents: 0, delegation_policy: { mode: 'forbidden' } };
const runtime = { name: 'r', max_tool_iterations: 10, parallel_tools: false, shell_timeout_secs: 600, agentic: false, max_delegation_depth: 1 };
const ctx = { runId: 'r', toolCallId: 'c', signal: new AbortController().signal, config: { providers: {} }, cwd: ${JSON.stringify(dir)},
  caller: { alias: 'main', risk, runtime, isSubagent: false, delegationDepth: 0, delegationDepthLimit: 1, callerChain: ['main'] },
  tracker: { recordAction() {}, recordCostUsd() {}, costExceeded() {} }, services: undefined };
shellTool.run({ command: [
  "setsid sh -c 'echo $$ > setsid.pid; exec sleep 300' >/dev/null 2>&1 &",
  "sh -c \\"(sh -c 'echo \\\\$\\\\$ > fork.pid; exec sleep 300' >/dev/null 2>&1 &) &\\"",
  "sh -c 'echo $$ > group.pid; exec sleep 300' &",
  'sleep 300',
].join('\\n') }, ctx);
setInterval(() => {
  if (['setsid.pid', 'fork.pid', 'group.pid'].every((f) => existsSync(${JSON.stringify(dir)} + '/' + f))) process.exit(0);
}, 20);
`;

describe('tool processes and arbor exiting', () => {
  it('a process exit mid-call reaps the group and the processes that left it', async () => {
    const dist = join(repoRoot, 'build', 'tools', 'shell.js');
    expect(existsSync(dist), `${dist} missing: run npm run build first`).toBe(true);
    work = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-exit-reap-')));
    const child = spawn(process.execPath, ['--input-type=module', '-e', script(work)], { stdio: ['ignore', 'ignore', 'inherit'] });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const found = ['setsid.pid', 'fork.pid', 'group.pid'].map((f) => Number(readFileSync(join(work!, f), 'utf8').trim()));
    pids.push(...found);
    const deadline = Date.now() + 3000;
    while (found.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(found.filter(alive)).toEqual([]);
  });
});
