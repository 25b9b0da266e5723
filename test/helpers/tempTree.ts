// A temp folder laid out from a map, removed when the test ends: the arrange step of the
// file-tool tests, which each start from a work folder, an outside folder and a few files.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Makes arbor-<name>-XXXX (its real path, as tools resolve links) with `entries`: a path
 * ending in "/" is a folder, any other a file with that content. Call it in a test or a
 * beforeEach; the folder goes when the test ends. */
export function tempTree(name: string, entries: Record<string, string>): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), `arbor-${name}-`)));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  for (const [path, content] of Object.entries(entries)) {
    const full = join(base, path);
    if (path.endsWith('/')) {
      mkdirSync(full, { recursive: true });
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return base;
}
