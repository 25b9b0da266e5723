// What `npm install -g` gives a user: the package is packed and installed into a temp
// prefix exactly as a user would (with --ignore-scripts: nothing may depend on an install
// script), then the installed `arbor` is run as a command, headless and in a real terminal.
// Needs the release bundle in dist/ (npm test builds it first).
import { execFile as execFileCb, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackModel } from '../support/loopbackModel.js';
import { baseEnv, startTerminal, type Term } from '../support/terminal.js';
import { trustFolderForTest } from '../support/trustFolder.js';
import { fakeProviderConfig, tempArborHome, writeConfig, type ArborHome } from '../support/tempHome.js';
import { repoRoot } from '../support/paths.js';
import { READY, send, START_TIMEOUT } from './sandbox.js';

const execFile = promisify(execFileCb);
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };

interface PackedFile {
  path: string;
  size: number;
}

let work: string;
let prefix: string;
let installedBin: string;
let installedDir: string;
let packed: { filename: string; size: number; unpackedSize: number; files: PackedFile[] };

beforeAll(async () => {
  if (!existsSync(join(repoRoot, 'dist', 'arbor.js')))
    throw new Error('dist/arbor.js is missing: run `npm run build` first (npm test does)');
  work = mkdtempSync(join(tmpdir(), 'arbor-pack-'));
  prefix = join(work, 'prefix');
  const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  const { stdout } = await execFile('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: repoRoot,
    env: npmEnv,
    maxBuffer: 16 * 1024 * 1024,
  });
  packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;
  // --prefer-offline: the bundle has no runtime dependencies, so nothing needs the registry.
  await execFile('npm', ['install', '-g', '--ignore-scripts', '--prefer-offline', '--prefix', prefix, join(work, packed.filename)], {
    cwd: work,
    env: npmEnv,
  });
  installedBin = join(prefix, 'bin', 'arbor');
  installedDir = join(prefix, 'lib', 'node_modules', pkg.name);
  // The size a user downloads, for whoever reads the test log.
  console.log(
    `${packed.filename}: ${(packed.size / 1024).toFixed(0)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${packed.files.length} files`,
  );
}, 180000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The installed command, no terminal. */
function runInstalled(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The folder's .arbor is the test's own: trusted first, as runArbor does.
    trustFolderForTest(cwd, baseEnv(env));
    const child = spawn(installedBin, args, { cwd, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the packed package', () => {
  it('holds the bundle, its source maps, the locales and the licence notices, and no tests, bench or src', () => {
    const paths = packed.files.map((f) => f.path);
    for (const must of [
      'package.json',
      'LICENSE',
      'README.md',
      'bin/arbor.js',
      'dist/arbor.js',
      'dist/arbor.js.map',
      'dist/THIRD_PARTY_NOTICES.md',
      'locales/en/cli.json',
      'locales/es/cli.json',
    ]) {
      expect(paths).toContain(must);
    }
    expect(paths.filter((p) => /^(test|bench|src|vendor|scripts|build|patches)\//.test(p) || p.includes('testing/'))).toEqual([]);
    // Every chunk the entry loads ships with its map.
    const chunks = paths.filter((p) => p.startsWith('dist/chunks/') && p.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) expect(paths).toContain(`${c}.map`);
  });

  it('declares no runtime dependency and no install script: the bundle carries everything', () => {
    const installed = JSON.parse(readFileSync(join(installedDir, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    expect(Object.keys(installed.dependencies ?? {})).toEqual([]);
    expect(Object.keys(installed.scripts ?? {}).filter((s) => /install|prepare/.test(s))).toEqual([]);
    expect(existsSync(join(installedDir, 'node_modules'))).toBe(false);
    expect(installed.engines).toEqual({ node: '>=20' });
  });

  it("carries arbor's Ink (vendor/ink), not upstream Ink, with the key-frame path and the fast output", () => {
    const dist = join(installedDir, 'dist');
    const code = [
      join(dist, 'arbor.js'),
      ...readdirSync(join(dist, 'chunks'))
        .filter((f) => f.endsWith('.js'))
        .map((f) => join(dist, 'chunks', f)),
    ]
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    expect(code).toContain('renderNextCommitNow');
    expect(code).toContain('composeRowFromCells');
    const sources = [
      join(dist, 'arbor.js.map'),
      ...readdirSync(join(dist, 'chunks'))
        .filter((f) => f.endsWith('.map'))
        .map((f) => join(dist, 'chunks', f)),
    ].flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as { sources: string[] }).sources);
    expect(sources.some((s) => s.endsWith('vendor/ink/build/ink.js'))).toBe(true);
    expect(sources.some((s) => s.endsWith('vendor/ink/build/output.js'))).toBe(true);
    expect(
      sources.filter((s) => /node_modules\/ink(-upstream)?\//.test(s) || s.includes('src/testing/') || s.includes('test/support/')),
    ).toEqual([]);
    const notices = readFileSync(join(dist, 'THIRD_PARTY_NOTICES.md'), 'utf8');
    for (const name of ['ink@6.8.0', 'react@', 'yoga-layout@', 'i18next@']) expect(notices).toContain(`## ${name}`);
    expect(notices).toContain('Vendored and changed by arbor');
  });
});

describe('the installed arbor', () => {
  let h: ArborHome;
  const terms: Term[] = [];
  beforeAll(() => {
    h = tempArborHome();
  });
  afterAll(async () => {
    await Promise.all(terms.map((t) => t.dispose()));
    h?.cleanup();
  });

  it('--version prints the package version and the Node version', async () => {
    const r = await runInstalled(['--version'], h.env, h.dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`arbor ${pkg.version} (Node.js ${process.version})\n`);
  });

  it('-p answers from the loopback model', async () => {
    const model = await startLoopbackModel({
      dialect: 'openai',
      respond: () => ({ kind: 'text', chunks: ['installed ', 'and ', 'answering'] }),
    });
    const dir = mkdtempSync(join(tmpdir(), 'arbor-installed-p-'));
    try {
      writeConfig(dir, fakeProviderConfig(model.url));
      const r = await runInstalled(['-p', 'are you there?'], h.env, dir);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('installed and answering\n');
      expect(r.code).toBe(0);
      expect(JSON.stringify(model.requests[0]?.body)).toContain('are you there?');
    } finally {
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('chats and fans out to 3 children with the offline model in a real terminal', async () => {
    const term = await startTerminal({ command: installedBin, args: [], env: h.env, cwd: h.dir, cols: 120, rows: 40 });
    terms.push(term);
    await term.waitForText(READY, START_TIMEOUT);
    await term.waitForRawMode(START_TIMEOUT);
    await send(term, 'hello from the installed package');
    await term.waitForText('[offline model] You said: "hello from the installed package"', 15000);
    await send(term, 'fan out 3: summarize each file');
    await term.waitForText('Fan-out finished: 3 of 3 succeeded, 0 failed.', 30000);
    for (const i of [1, 2, 3]) expect(term.scrollback()).toContain(`summarize each file (part ${i} of 3)`);
  }, 60000);

  it('doctor passes in a terminal with the offline model and exits 0', async () => {
    const term = await startTerminal({ command: installedBin, args: ['doctor'], env: h.env, cwd: h.dir, cols: 120, rows: 40 });
    terms.push(term);
    const exit = await term.waitForExit(20000);
    await term.flush();
    expect(term.scrollback()).toContain('✓ provider offline (offline/arbor-offline): built in, needs no network');
    expect(term.scrollback()).toContain('All checks passed.');
    expect(exit.exitCode).toBe(0);
  }, 30000);
});
