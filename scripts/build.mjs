// The release build: src/cli/main.ts and everything it imports, the vendored Ink
// (vendor/ink) included, bundled by esbuild into dist/arbor.js (plus lazily loaded chunks
// for the chat UI and the AI SDK) with source maps and the third-party licence notices.
// This is what bin/arbor.js loads, in the checkout and in the published package alike, so
// no install script is needed for users to get arbor's Ink.
//
//   node scripts/build.mjs             build
//   node scripts/build.mjs --if-stale  build only when a source is newer than the bundle (npm start)
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist');
const entry = join(outdir, 'arbor.js');
const NOTICES = 'THIRD_PARTY_NOTICES.md';

/** The newest modification time under the paths the bundle is made from. */
function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules') visit(join(p, name));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of paths) visit(join(root, p));
  return newest;
}

function isStale() {
  if (!existsSync(entry) || !existsSync(join(outdir, NOTICES))) return true;
  const sources = ['src', 'vendor/ink', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs'];
  return newestMtime(sources) > statSync(entry).mtimeMs;
}

/** The package directory an input file belongs to: vendor/ink, or node_modules/<name>. */
function packageDirOf(input) {
  const parts = input.split('/');
  if (parts[0] === 'vendor' && parts[1] === 'ink') return 'vendor/ink';
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const nameLen = parts[at + 1]?.startsWith('@') ? 2 : 1;
  return parts.slice(0, at + 1 + nameLen).join('/');
}

function readPackage(dir) {
  return JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
}

/**
 * wrap-ansi measures every line Ink wraps; string-width 8 measures plain ASCII without a
 * grapheme segmenter. npm applies `overrides` only at the root project, so the choice is
 * made here, where the bundle is made, and an older string-width in it fails the build.
 */
function checkStringWidth(inputs) {
  const dirs = new Set(inputs.map(packageDirOf).filter((d) => d && d.endsWith('/string-width')));
  for (const dir of dirs) {
    const { version } = readPackage(dir);
    if (Number(version.split('.')[0]) < 8) {
      throw new Error(`${dir} is string-width ${version}; the bundle needs 8 or later (package.json overrides for wrap-ansi)`);
    }
  }
  if (dirs.size === 0) throw new Error('no string-width in the bundle: did wrap-ansi or Ink change?');
}

/** What ships must not carry the test servers, harnesses or anything else from test/ or bench/. */
function checkNoTestingCode(inputs) {
  const leaked = inputs.filter((i) => i.startsWith('test/') || i.startsWith('bench/') || i.startsWith('build/support/'));
  if (leaked.length) throw new Error(`test code reached the bundle: ${leaked.join(', ')}`);
  if (!inputs.some((i) => i.startsWith('vendor/ink/')))
    throw new Error('the bundle does not contain vendor/ink: is node_modules/ink the workspace link?');
}

const LICENSE_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt|markdown))?$/i;

/** One section per bundled package: name, version, licence and the licence text it ships. */
function writeNotices(inputs) {
  const dirs = [...new Set(inputs.map(packageDirOf).filter(Boolean))];
  const byName = new Map();
  for (const dir of dirs) {
    const pkg = readPackage(dir);
    const key = `${pkg.name}@${pkg.version}`;
    if (byName.has(key)) continue;
    const files = readdirSync(join(root, dir))
      .filter((f) => LICENSE_FILE.test(f))
      .sort();
    const texts = files.map((f) => readFileSync(join(root, dir, f), 'utf8').trim());
    byName.set(key, { pkg, dir, texts });
  }
  const sections = [...byName.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, { pkg, dir, texts }]) => {
      const licence = typeof pkg.license === 'string' ? pkg.license : JSON.stringify(pkg.license ?? 'see the package');
      const note = dir === 'vendor/ink' ? '\n\nVendored and changed by arbor: see vendor/ink/README.md in the repository.' : '';
      const body = texts.length ? texts.join('\n\n') : `(${pkg.name} ships no licence file; its package.json says: ${licence})`;
      return `## ${key}\n\nLicence: ${licence}${note}\n\n\`\`\`\n${body}\n\`\`\``;
    });
  const head = "# Third-party notices\n\narbor's release bundle (dist/) contains the following packages.\n";
  writeFileSync(join(outdir, NOTICES), `${head}\n${sections.join('\n\n')}\n`);
  return byName.size;
}

async function main() {
  if (process.argv.includes('--if-stale') && !isStale()) return;
  const started = performance.now();
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { arbor: 'src/cli/main.ts' },
    outdir: 'dist',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    // Chunks keep what main.ts loads lazily (the chat UI, the AI SDK) out of the start-up path.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: 'tsconfig.json',
    // React and friends pick their production build when NODE_ENV says so; deciding it here
    // leaves the development builds out of the bundle.
    define: { 'process.env.NODE_ENV': '"production"' },
    // Ink loads the React devtools only with DEV=true; they are an optional peer, not shipped.
    external: ['react-devtools-core'],
    // CommonJS packages inside an ESM bundle still call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __arborCreateRequire } from 'node:module'; const require = __arborCreateRequire(import.meta.url);",
    },
  });
  const inputs = Object.keys(result.metafile.inputs).map((i) => i.split(sep).join('/'));
  checkNoTestingCode(inputs);
  checkStringWidth(inputs);
  const packages = writeNotices(inputs);
  const bytes = Object.entries(result.metafile.outputs).reduce((n, [, o]) => n + o.bytes, 0);
  const ms = Math.round(performance.now() - started);
  process.stderr.write(
    `bundle: ${relative(root, entry)} and ${Object.keys(result.metafile.outputs).length - 1} more files, ${(bytes / 1024).toFixed(0)} KiB, ${packages} packages, ${ms} ms\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`build failed: ${err && err.message ? err.message : String(err)}\n`);
  process.exit(1);
});
