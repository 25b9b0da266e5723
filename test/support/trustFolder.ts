// Tests start arbor in temp folders whose ./.arbor settings the test itself wrote: the
// owner trusts them. Before each start the harness records that trust the way a user
// would, with `arbor trust <dir>`'s own code (so the hash is the one arbor checks);
// a test of the trust prompt itself passes `trustProject: false` and meets the folder
// untrusted.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { arborBin } from './paths.js';

type TrustCommand = (
  opts: { path?: string; revoke: boolean; cwd: string; env: NodeJS.ProcessEnv; home: string },
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
) => number;

/** The function `arbor trust` runs (src/cli/projectTrust.ts), when the sources can be
 * imported: under vitest they can, so trusting costs no node process per arbor start (it
 * was one in five of the e2e suite's launches). Compiled for the benchmarks they cannot
 * (there is no src/*.js), and the real command runs instead. The specifier is built at run
 * time so tsc does not pull src/ into the support build. */
async function loadTrustCommand(): Promise<TrustCommand | undefined> {
  const source = new URL('../../src/cli/projectTrust.js', import.meta.url).href;
  try {
    const mod = (await import(source)) as { trustCommand?: TrustCommand };
    return mod.trustCommand;
  } catch {
    return undefined;
  }
}

const trustCommand = await loadTrustCommand();
const discard = () => new Writable({ write: (_chunk, _enc, done) => done() });

export function trustFolderForTest(cwd: string, env: Record<string, string>): void {
  if (!env.ARBOR_HOME) return;
  const dot = join(cwd, '.arbor');
  if (!existsSync(join(dot, 'config.toml')) && !existsSync(join(dot, 'agents'))) return;
  try {
    if (trustCommand) trustCommand({ revoke: false, cwd, env, home: env.ARBOR_HOME }, discard(), discard());
    else execFileSync(process.execPath, [arborBin, 'trust', cwd], { env, stdio: 'ignore', timeout: 60_000 });
  } catch {
    // A folder arbor cannot read is the test's subject: arbor reports it at start.
  }
}
