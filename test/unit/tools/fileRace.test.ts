// The symlink race: another process flips a link (or swaps a directory for a link) between
// an inside and an outside target in a tight loop while the file tools run. What was
// checked is what is opened, so over 500 calls nothing outside the root is ever read,
// written or listed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../../src/tools/editFile.js';
import { globTool } from '../../../src/tools/glob.js';
import { grepTool } from '../../../src/tools/grep.js';
import { listFilesTool } from '../../../src/tools/listFiles.js';
import { readFileTool } from '../../../src/tools/readFile.js';
import { writeFileTool } from '../../../src/tools/writeFile.js';
import { context } from './helpers.js';

const ROUNDS = 500;
const SECRET = 'OUTSIDE-SECRET';

let base: string;
let inside: string;
let outside: string;
let flipper: ChildProcess | undefined;

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

/** Starts a process that flips forever; resolves once it has flipped at least once. */
async function startFlipper(script: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', script], { cwd: inside, stdio: ['ignore', 'pipe', 'inherit'] });
  flipper = child;
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`flipper exited early (${code})`)));
  });
}

async function stopFlipper(): Promise<void> {
  const child = flipper;
  flipper = undefined;
  if (!child || child.exitCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

/** `flip` is atomically replaced (rename over it) by a link to the inside file, then to the
 * outside one, in a tight loop. */
const flipLink = () => `
const fs = require('node:fs');
let i = 0;
for (;;) {
  const tmp = 'flip.tmp';
  try { fs.unlinkSync(tmp); } catch {}
  fs.symlinkSync(i % 2 ? ${JSON.stringify(join(outside, 'secret.txt'))} : 'real.txt', tmp);
  fs.renameSync(tmp, 'flip');
  if (++i === 2) process.stdout.write('go');
}`;

/** `d` is a real directory, then a link to the outside directory, swapped by renames. */
const flipDir = () => `
const fs = require('node:fs');
fs.mkdirSync('d.dir');
fs.writeFileSync('d.dir/secret.txt', 'INSIDE');
fs.symlinkSync(${JSON.stringify(outside)}, 'd.link');
let i = 0;
const swap = (from, to) => { try { fs.renameSync(from, to); } catch {} };
for (;;) {
  swap('d.dir', 'd'); swap('d', 'd.dir');
  swap('d.link', 'd'); swap('d', 'd.link');
  if (++i === 2) process.stdout.write('go');
}`;

describe('file tools under a symlink-flipping race', () => {
  it(`read_file never returns the outside file through a flipping link (${ROUNDS} reads)`, async () => {
    await startFlipper(flipLink());
    const ctx = context({ cwd: inside });
    let insideReads = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const r = await readFileTool.run({ path: 'flip' }, ctx);
      expect(r.output + (r.error ?? '')).not.toContain(SECRET);
      if (r.success && r.output === '     1\tINSIDE') insideReads++;
    }
    // The race was real: some reads got the inside file through the link.
    expect(insideReads).toBeGreaterThan(0);
  });

  it(`read_file never returns the outside file through a directory swapped for a link (${ROUNDS} reads)`, async () => {
    await startFlipper(flipDir());
    const ctx = context({ cwd: inside });
    let insideReads = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const r = await readFileTool.run({ path: 'd/secret.txt' }, ctx);
      expect(r.output + (r.error ?? '')).not.toContain(SECRET);
      if (r.success && r.output === '     1\tINSIDE') insideReads++;
    }
    expect(insideReads).toBeGreaterThan(0);
  });

  it(`write_file never writes the outside file through a flipping link (${ROUNDS} writes)`, async () => {
    await startFlipper(flipLink());
    const ctx = context({ cwd: inside });
    for (let i = 0; i < ROUNDS; i++) await writeFileTool.run({ path: 'flip', content: `PWNED ${i}` }, ctx);
    await stopFlipper();
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(readFileSync(join(inside, 'real.txt'), 'utf8')).toMatch(/^PWNED \d+$/);
  });

  it(`list_files never lists the outside directory through a directory swapped for a link (${ROUNDS} listings)`, async () => {
    await startFlipper(flipDir());
    const ctx = context({ cwd: inside });
    let listed = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const r = await listFilesTool.run({ path: 'd' }, ctx);
      expect(r.output + (r.error ?? '')).not.toContain('outside-only');
      if (r.success && r.output.includes('secret.txt')) listed++;
      const deep = await listFilesTool.run({ pattern: '**/*' }, ctx);
      expect(deep.output).not.toContain('outside-only');
    }
    expect(listed).toBeGreaterThan(0);
  });

  it(`edit_file never edits the outside file through a flipping link (${ROUNDS} edits)`, async () => {
    await startFlipper(flipLink());
    const ctx = context({ cwd: inside });
    let edits = 0;
    for (let i = 0; i < ROUNDS; i++) {
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
    for (let i = 0; i < ROUNDS / 2; i++) {
      const r = await grepTool.run({ pattern: 'SECRET|INSIDE', path: i % 2 ? 'd' : '.' }, ctx);
      expect(r.output + (r.error ?? '')).not.toContain(SECRET);
      if (r.success && r.output.includes('INSIDE')) found++;
      const g = await globTool.run({ pattern: '**/*', path: i % 2 ? 'd' : '.' }, ctx);
      expect(g.output + (g.error ?? '')).not.toContain('outside-only');
    }
    expect(found).toBeGreaterThan(0);
  });
});
