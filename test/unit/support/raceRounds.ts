// The rounds of the symlink-race suites (test/unit/tools/fileRace.test.ts in a plain
// folder, test/unit/worktrees/fileRace.test.ts in an isolated child's worktree): the same
// file tool called again and again through a link the flipper (test/support/symlinkFlipper.ts)
// keeps swapping, each result checked. Both suites wrote these loops out; they live here once.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { listFilesTool } from '../../../src/tools/listFiles.js';
import { readFileTool } from '../../../src/tools/readFile.js';
import type { ToolContext } from '../../../src/tools/types.js';
import { writeFileTool } from '../../../src/tools/writeFile.js';
import { MAX_RACE_ROUNDS } from '../../support/symlinkFlipper.js';

/** Runs `round` at least `min` times, and on (up to `max`) until `shown()`: a race is tried
 * until it has shown itself, so a pass means something. */
export async function raceRounds(min: number, shown: () => boolean, round: (i: number) => Promise<unknown>, max = MAX_RACE_ROUNDS) {
  for (let i = 0; i < min || (!shown() && i < max); i++) await round(i);
}

/** read_file of `path`, `min` rounds or more: no result ever holds `secret`. Returns how
 * many reads got the inside file (`INSIDE`) through the link. */
export async function readsThrough(ctx: ToolContext, path: string, secret: string, min: number): Promise<number> {
  let inside = 0;
  await raceRounds(
    min,
    () => inside > 0,
    async () => {
      const r = await readFileTool.run({ path }, ctx);
      expect(r.output + (r.error ?? '')).not.toContain(secret);
      if (r.success && r.output === '     1\tINSIDE') inside++;
    },
  );
  return inside;
}

/** write_file through `flip`, `min` rounds or more, until the inside file `real` was written. */
export async function writesThrough(ctx: ToolContext, real: string, min: number): Promise<void> {
  await raceRounds(
    min,
    () => readFileSync(real, 'utf8') !== 'INSIDE',
    (i) => writeFileTool.run({ path: 'flip', content: `PWNED ${i}` }, ctx),
  );
}

/** list_files of `d`, `min` rounds or more: no listing ever names `hidden` (a file only the
 * forbidden side has); `also` runs after each listing. Returns how many listings were of
 * the inside directory. */
export async function listingsThrough(ctx: ToolContext, hidden: string, min: number, also?: () => Promise<void>): Promise<number> {
  let listed = 0;
  await raceRounds(
    min,
    () => listed > 0,
    async () => {
      const r = await listFilesTool.run({ path: 'd' }, ctx);
      expect(r.output + (r.error ?? '')).not.toContain(hidden);
      if (r.success && r.output.includes('secret.txt')) listed++;
      await also?.();
    },
  );
  return listed;
}
