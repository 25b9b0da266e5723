// Where things are: the repository root, the launcher (which loads the release bundle in
// dist/) and the modules tsc compiles to build/ for benchmarks that drive the runtime in-process.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = resolve(benchDir, '..');
export const arborBin = join(repoRoot, 'bin', 'arbor.js');

/** A file URL for a compiled module, e.g. distUrl('runtime/runtime.js') (from build/). Fails
 * with a clear message when the build has not produced it, since Node 20 cannot load the TypeScript. */
export function distUrl(relative) {
  const file = join(repoRoot, 'build', relative);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (npm run bench does)`);
  return pathToFileURL(file).href;
}
