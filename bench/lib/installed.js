// The package as a user gets it: `npm pack` of this checkout (its dist/ bundle, built by
// `npm run bench`), installed with `npm install -g --ignore-scripts` into a temp prefix. Done
// once per bench run and removed when the run ends; benchmarks launch the installed
// bin/arbor.js with this node, the same way they launch the checkout's.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

let installed;

function install() {
  if (!existsSync(join(repoRoot, 'dist', 'arbor.js')))
    throw new Error('dist/arbor.js is missing: run `npm run build` first (npm run bench does)');
  const work = mkdtempSync(join(tmpdir(), 'arbor-bench-install-'));
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: repoRoot, env, encoding: 'utf8' }),
  );
  const prefix = join(work, 'prefix');
  execFileSync('npm', ['install', '-g', '--ignore-scripts', '--prefer-offline', '--prefix', prefix, join(work, packed.filename)], {
    cwd: work,
    env,
    stdio: 'ignore',
  });
  const bin = join(prefix, 'lib', 'node_modules', 'arbor', 'bin', 'arbor.js');
  if (!existsSync(bin)) throw new Error(`the installed package has no ${bin}`);
  return { bin, prefix, tarball: packed.filename, packedBytes: packed.size };
}

/** { bin, prefix, tarball, packedBytes } of the installed package; installs on first call. */
export function installedArbor() {
  installed ??= install();
  return installed;
}
