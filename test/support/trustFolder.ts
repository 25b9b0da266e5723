// Tests start arbor in temp folders whose ./.arbor settings the test itself wrote: the
// owner trusts them. Before each start the harness records that trust the way a user
// would, with `arbor trust <dir>` (the real command, so the hash is the one arbor checks);
// a test of the trust prompt itself passes `trustProject: false` and meets the folder
// untrusted.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { arborBin } from './paths.js';

export function trustFolderForTest(cwd: string, env: Record<string, string>): void {
  if (!env.ARBOR_HOME) return;
  const dot = join(cwd, '.arbor');
  if (!existsSync(join(dot, 'config.toml')) && !existsSync(join(dot, 'agents'))) return;
  try {
    execFileSync(process.execPath, [arborBin, 'trust', cwd], { env, stdio: 'ignore', timeout: 60_000 });
  } catch {
    // A folder arbor cannot read is the test's subject: arbor reports it at start.
  }
}
