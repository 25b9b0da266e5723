// The hardening suite's symlink race (test/support/symlinkFlipper.ts) inside an isolated
// child's worktree (issue #23): the tools as the child gets them (its caller mapped into a
// real worktree of a real repository, runtime/worktrees/place.ts) while a link in the
// worktree flips between a file of the worktree and the original checkout's. The roots
// are the folder holding both, so only the checkout being forbidden (and the open
// descriptor's check) keeps the tools out: nothing of the checkout is ever read or written.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/model/run.js';
import { createRuntimeStore } from '../../../src/runtime/store.js';
import { callerIn, type Place } from '../../../src/runtime/worktrees/place.js';
import { WorktreeQueue } from '../../../src/runtime/worktrees/queue.js';
import { readFileTool } from '../../../src/tools/readFile.js';
import type { ToolContext } from '../../../src/tools/types.js';
import { treeState } from '../../support/pathEscapes.js';
import { RACE_TIMEOUT_MS, flipDir, flipLink, startFlipper, type Flipper } from '../../support/symlinkFlipper.js';
import { listingsThrough, readsThrough, writesThrough } from '../support/raceRounds.js';
import { caller, context, risk } from '../tools/helpers.js';
import { git, gitRepo } from './helpers.js';

const ROUNDS = 200;
const SECRET = 'CHECKOUT-SECRET';

let checkout: string;
let home: string;
let place: Place;
let flipper: Flipper | undefined;
let before: Record<string, string>;

beforeEach(async () => {
  checkout = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-wt-race-cwd-')));
  home = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-wt-race-home-')));
  gitRepo(checkout, { 'real.txt': 'INSIDE', '.gitignore': 'secret.txt\nchecked-only.txt\n' });
  // Ignored: no snapshot carries them into the worktree, so they can only be the checkout's.
  writeFileSync(join(checkout, 'secret.txt'), SECRET);
  writeFileSync(join(checkout, 'checked-only.txt'), SECRET);
  const queue = new WorktreeQueue({ home, store: createRuntimeStore('race-session'), mergeMode: () => 'ask' });
  const run = { id: 'r-1', alias: 'w1', kind: 'delegate', number: 1, shortId: 'r-1' } as Run;
  place = await queue.create(run, checkout, undefined);
  before = treeState(checkout);
});

afterEach(async () => {
  await flipper?.stop();
  flipper = undefined;
  git(checkout, 'worktree', 'remove', '--force', place.top);
  rmSync(checkout, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** The context an isolated child's tools get: roots wide enough to hold the checkout, then
 * mapped into the worktree (the checkout forbidden), working in the worktree. */
function childContext(): ToolContext {
  const wide = risk({ allowed_roots: [dirname(checkout)] });
  return { ...context({ cwd: place.cwd, risk: wide }), caller: callerIn(caller(wide), checkout, place) };
}

describe('file tools in a worktree under a symlink-flipping race', { timeout: RACE_TIMEOUT_MS }, () => {
  it('the mapped caller refuses the checkout and reaches the worktree', async () => {
    const ctx = childContext();
    expect((await readFileTool.run({ path: join(checkout, 'secret.txt') }, ctx)).error).toContain('forbidden path');
    expect((await readFileTool.run({ path: 'real.txt' }, ctx)).output).toBe('     1\tINSIDE');
  });

  it(`read_file never returns the checkout's file through a flipping link (${ROUNDS} reads)`, async () => {
    flipper = await startFlipper(flipLink(join(checkout, 'secret.txt')), place.cwd);
    const insideReads = await readsThrough(childContext(), 'flip', SECRET, ROUNDS);
    // The race was real: some reads got the worktree's file through the link.
    expect(insideReads).toBeGreaterThan(0);
  });

  it(`write_file never writes the checkout's file through a flipping link (${ROUNDS} writes)`, async () => {
    flipper = await startFlipper(flipLink(join(checkout, 'secret.txt')), place.cwd);
    await writesThrough(childContext(), join(place.cwd, 'real.txt'), ROUNDS);
    await flipper.stop();
    expect(treeState(checkout)).toEqual(before);
    expect(readFileSync(join(place.cwd, 'real.txt'), 'utf8')).toMatch(/^PWNED \d+$/);
  });

  it(`list_files never lists the checkout through a directory swapped for a link (${ROUNDS} listings)`, async () => {
    flipper = await startFlipper(flipDir(checkout), place.cwd);
    const listed = await listingsThrough(childContext(), 'checked-only', ROUNDS);
    expect(listed).toBeGreaterThan(0);
    expect(treeState(checkout)).toEqual(before);
  });
});
