// Where arbor's package.json and locales/ are (here in i18n, the leaf that needs it first). The same code runs from src/ (tests), from
// the compiled build/ and from the release bundle (dist/arbor.js and dist/chunks/), each a
// different depth below the package root, so the root is found by walking up.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The directory holding arbor's package.json (the checkout, or the installed package). */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'arbor') return (cached = dir);
      } catch {
        // not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`arbor's package.json was not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
