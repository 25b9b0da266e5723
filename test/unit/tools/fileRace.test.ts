// The symlink race: another process flips a link (or swaps a directory for a link) between
// an inside and an outside target in a tight loop while the file tools run. What was
// checked is what is opened, so over 500 calls nothing outside the root is ever read,
// written or listed.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../../src/tools/editFile.js';
import { globTool } from '../../../src/tools/glob.js';
import { grepTool } from '../../../src/tools/grep.js';
import { listFilesTool } from '../../../src/tools/listFiles.js';
import { context } from './helpers.js';
import {
  MAX_RACE_ROUNDS as MAX_ROUNDS,
  RACE_TIMEOUT_MS,
  flipDir as flipDirTo,
  flipLink as flipLinkTo,
  startFlipper as startFlipperIn,
  type Flipper,
} from '../../support/symlinkFlipper.js';
import { listingsThrough, readsThrough, writesThrough } from '../support/raceRounds.js';

const ROUNDS = 500;
const SECRET = 'OUTSIDE-SECRET';

let base: string;
let inside: string;
let outside: string;
let flipper: Flipper | undefined;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-race-')));
  inside = join(base, 'inside');
  outside = join(base, 'outside');
  mkdirSync(inside);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), SECRET);
  writeFileSync(join(outside, 'outside-only.txt'), SECRET);
  writeFileSync(join(inside, 'real.txt'), 'INSIDE');
});

afterEach(async () => {
  await stopFlipper();
  rmSync(base, { recursive: true, force: true });
});

/** Starts a flipper in the inside folder; the test's afterEach stops it. */
async function startFlipper(script: string): Promise<void> {
  flipper = await startFlipperIn(script, inside);
}

async function stopFlipper(): Promise<void> {
  const running = flipper;
  flipper = undefined;
  await running?.stop();
}

const flipLink = () => flipLinkTo(join(outside, 'secret.txt'));
const flipDir = () => flipDirTo(outside);

describe('file tools under a symlink-flipping race', { timeout: RACE_TIMEOUT_MS }, () => {
  it(`read_file never returns the outside file through a flipping link (${ROUNDS} reads)`, async () => {
    await startFlipper(flipLink());
    const insideReads = await readsThrough(context({ cwd: inside }), 'flip', SECRET, ROUNDS);
    // The race was real: some reads got the inside file through the link.
    expect(insideReads).toBeGreaterThan(0);
  });

  it(`read_file never returns the outside file through a directory swapped for a link (${ROUNDS} reads)`, async () => {
    await startFlipper(flipDir());
    const insideReads = await readsThrough(context({ cwd: inside }), 'd/secret.txt', SECRET, ROUNDS);
    expect(insideReads).toBeGreaterThan(0);
  });

  it(`write_file never writes the outside file through a flipping link (${ROUNDS} writes)`, async () => {
    await startFlipper(flipLink());
    await writesThrough(context({ cwd: inside }), join(inside, 'real.txt'), ROUNDS);
    await stopFlipper();
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(readFileSync(join(inside, 'real.txt'), 'utf8')).toMatch(/^PWNED \d+$/);
  });

  it(`list_files never lists the outside directory through a directory swapped for a link (${ROUNDS} listings)`, async () => {
    await startFlipper(flipDir());
    const ctx = context({ cwd: inside });
    const listed = await listingsThrough(ctx, 'outside-only', ROUNDS, async () => {
      const deep = await listFilesTool.run({ pattern: '**/*' }, ctx);
      expect(deep.output).not.toContain('outside-only');
    });
    expect(listed).toBeGreaterThan(0);
  });

  it(`edit_file never edits the outside file through a flipping link (${ROUNDS} edits)`, async () => {
    await startFlipper(flipLink());
    const ctx = context({ cwd: inside });
    let edits = 0;
    for (let i = 0; i < ROUNDS || (edits === 0 && i < MAX_ROUNDS); i++) {
      // 'SIDE' is in both files: each round turns it into 'SIDX' or back.
      const [from, to] = readFileSync(join(inside, 'real.txt'), 'utf8').includes('SIDE') ? ['SIDE', 'SIDX'] : ['SIDX', 'SIDE'];
      const r = await editFileTool.run({ path: 'flip', old_string: from, new_string: to }, ctx);
      expect(r.output + (r.error ?? '')).not.toContain(SECRET);
      if (r.success) edits++;
    }
    await stopFlipper();
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(readFileSync(join(inside, 'real.txt'), 'utf8')).toMatch(/^INSID[EX]$/);
    expect(edits).toBeGreaterThan(0);
  });

  it(`grep and glob never search the outside directory through a directory swapped for a link (${ROUNDS} searches)`, async () => {
    await startFlipper(flipDir());
    const ctx = context({ cwd: inside });
    let found = 0;
    // Each search starts git (which finds no work tree here), so half the rounds each.
    for (let i = 0; i < ROUNDS / 2 || (found === 0 && i < MAX_ROUNDS / 2); i++) {
      const r = await grepTool.run({ pattern: 'SECRET|INSIDE', path: i % 2 ? 'd' : '.' }, ctx);
      expect(r.output + (r.error ?? '')).not.toContain(SECRET);
      if (r.success && r.output.includes('INSIDE')) found++;
      const g = await globTool.run({ pattern: '**/*', path: i % 2 ? 'd' : '.' }, ctx);
      expect(g.output + (g.error ?? '')).not.toContain('outside-only');
    }
    expect(found).toBeGreaterThan(0);
  });
});
