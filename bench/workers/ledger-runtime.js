// The runtime under test for the ledger benchmark, alone in this process: a 100-child
// fan-out where every child runs one `shell` command in a git work tree of 5,000 files,
// with the observed-effects ledger on or off (createRuntime({ledger})). Driven over IPC:
// {cmd: 'setup', files} makes the work tree once; {cmd: 'turn', url, children, ledger}
// runs one turn there and puts the tree back as it was (the children's files removed).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT_PROMPT } from '../lib/fanoutScript.js';
import { fakeTrustedProvider } from '../lib/benchConfig.js';
import { distUrl } from '../lib/paths.js';

const { loadConfigFromTexts } = await import(distUrl('config/load.js'));
const { createRuntime } = await import(distUrl('runtime/runtime.js'));

const now = () => performance.timeOrigin + performance.now();

let tree;

function git(...args) {
  execFileSync('git', args, {
    cwd: tree,
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tree, GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/** A committed work tree of `files` small text files in 50 folders. */
function setup({ files }) {
  tree = mkdtempSync(join(tmpdir(), 'arbor-bench-ledger-'));
  for (let i = 0; i < files; i++) {
    const dir = join(tree, `pkg${i % 50}`);
    if (i < 50) mkdirSync(dir);
    writeFileSync(join(dir, `file${i}.ts`), `export const value${i} = ${i};\n// line two\n// line three\n`);
  }
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@example.com', '-c', 'user.name=bench', 'commit', '-qm', 'bench tree');
  return { tree };
}

function configText(url, children) {
  return `
default_agent = "main"

${fakeTrustedProvider(url)}

[agents.main]
provider = "fake"
risk_profile = "trusted"
runtime_profile = "fanout"

[runtime_profiles.fanout]
parallel_tools = true
agentic = true

[delegation]
max_concurrent = ${children}
max_children_per_agent = ${children}
subagent_approvals = "allow"
`;
}

async function turn({ url, children, ledger }) {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tree };
  const loaded = loadConfigFromTexts([{ text: configText(url, children), file: join(tree, '..', 'config.toml') }], env);
  const runtime = createRuntime({ config: loaded.config, cwd: tree, interactive: false, env, ledger });
  globalThis.gc?.();
  const startAt = now();
  const cpu0 = process.cpuUsage();
  await runtime.startTurn(ROOT_PROMPT);
  const cpu = process.cpuUsage(cpu0);
  const endAt = now();
  const runs = runtime.store.getState().runs.values();
  const root = runs.find((r) => r.kind === 'root');
  const kids = runs.filter((r) => r.kind === 'subagent');
  const completed = kids.filter((r) => r.status === 'completed').length;
  const observedFiles = kids.reduce((n, r) => n + (r.observed?.files.length ?? 0), 0);
  const observedGit = kids.reduce((n, r) => n + (r.observed?.commands.filter((c) => c.observed === 'git').length ?? 0), 0);
  const shellOk = kids.reduce((n, r) => n + (r.observed?.commands.filter((c) => c.exitCode === 0).length ?? 0), 0);
  await runtime.dispose();
  // The next turn starts from the committed tree again.
  git('clean', '-fdq');
  return {
    startAt,
    endAt,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rootStatus: root?.status,
    rootError: root?.error,
    children: kids.length,
    completed,
    observedFiles,
    observedGit,
    shellOk,
  };
}

const commands = { setup, turn };

process.on('message', async (/** @type {any} */ msg) => {
  try {
    const command = commands[msg.cmd];
    if (!command) throw new Error(`unknown command ${msg.cmd}`);
    process.send({ id: msg.id, ok: true, ...(await command(msg)) });
  } catch (err) {
    process.send({ id: msg.id, ok: false, error: err && err.stack ? err.stack : String(err) });
  }
});
process.on('disconnect', () => {
  if (tree) rmSync(tree, { recursive: true, force: true });
  process.exit(0);
});
process.send({ event: 'ready' });
