// One interactive arbor in a pty for a benchmark run: how it is started (with the CPU profile
// when asked) and how a run ends (the screen in the error, everything closed). Shared so the
// pty benchmarks start and clean up arbor the same way.
import { installedArbor } from './installed.js';
import { distUrl } from './paths.js';

const { startTerminal } = await import(distUrl('support/terminal.js'));

/**
 * arbor's `bin` (default: the installed package's) under this node in a pty, in the temp home
 * `home`. ARBOR_BENCH_PROFILE_DIR=<dir> writes arbor's V8 CPU profile there when it quits.
 * @param {{ dir: string, env: NodeJS.ProcessEnv }} home from tempArborHome
 * @param {{ cols: number, rows: number, scrollback?: number, bin?: string, nodeArgs?: string[] }} options
 */
export function startArbor(home, { bin, nodeArgs = [], ...screen }) {
  const dir = process.env.ARBOR_BENCH_PROFILE_DIR;
  const profile = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  return startTerminal({
    command: process.execPath,
    args: [...profile, ...nodeArgs, bin ?? installedArbor().bin],
    cwd: home.dir,
    env: home.env,
    ...screen,
  });
}

/** `err` with the terminal's screen appended, to be thrown: a failed run shows what arbor showed. */
export async function withScreen(term, err) {
  await term.flush();
  return new Error(`${err.message}\n${term.describe()}`, { cause: err });
}

/** A run's end, failed or not: the pty, the temp home and (when given) the server's scenario closed. */
export async function closeRun(term, home, server) {
  await term.dispose();
  home.cleanup();
  if (server) await server.request({ cmd: 'close' });
}
