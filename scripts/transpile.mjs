// build/: each module of src/ (and test/support/ into build/support/) as plain JavaScript, one
// file per source file, for what loads arbor's modules without the bundle: the benchmarks, the
// MCP conformance client and the few end-to-end tests that start one module in a child node.
//
// esbuild strips the types file by file, as vitest does for the tests; it does not type-check.
// The type check is `npm run typecheck` (tsconfig.check.json covers src/ and test/), which
// `npm test` runs beside this. tsc emitting the same files cost ~30 s of CPU per `npm test`
// (its emit resolves types to know which imports to drop), and the code is checked to be safe
// for per-file stripping: tsconfig.json sets isolatedModules.
//
//   node scripts/transpile.mjs
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The TypeScript sources under `dir` (declaration files and tests left out). */
function sourcesUnder(dir) {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath ?? e.path, e.name)); // parentPath from Node 20.12
}

async function transpile(from, to) {
  await build({
    absWorkingDir: root,
    entryPoints: sourcesUnder(from),
    outbase: from,
    outdir: to,
    bundle: false,
    format: 'esm',
    platform: 'node',
    // tsconfig.json's target: class fields keep their define semantics, as tsc emitted them.
    target: 'es2022',
    jsx: 'automatic',
    sourcemap: 'linked',
    logLevel: 'warning',
    tsconfig: 'tsconfig.json',
  });
}

async function main() {
  const started = performance.now();
  // A module whose source was deleted must not linger and still be importable.
  rmSync(join(root, 'build'), { recursive: true, force: true });
  await transpile('src', 'build');
  await transpile('test/support', 'build/support');
  process.stderr.write(`build/: transpiled in ${Math.round(performance.now() - started)} ms\n`);
}

main().catch((err) => {
  process.stderr.write(`transpile failed: ${err && err.message ? err.message : String(err)}\n`);
  process.exit(1);
});
