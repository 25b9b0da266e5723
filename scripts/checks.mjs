// What `npm test` does before vitest: the build (which the end-to-end tests run) and the
// static checks (type checks, ESLint, Prettier, dependency-cruiser), two at a time: each is
// one single-threaded process, so on the 2-core machines the suite runs on they take about
// half the wall time they take one after another. Output is held per step and printed
// whole, so a failure reads as it would alone.
//
//   node scripts/checks.mjs            every check
//   node scripts/checks.mjs --jobs 1   one after another
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const CHECKS = [
  ['build', 'npm', ['run', '--silent', 'build']],
  ['tsc (src, test)', 'tsc', ['-p', 'tsconfig.check.json']],
  ['eslint', 'eslint', ['.', '--max-warnings', '0']],
  ['prettier', 'prettier', ['--check', 'src', 'test', 'bench', 'scripts', 'bin']],
  ['tsc (bench)', 'tsc', ['-p', 'tsconfig.bench.json']],
  ['dependency-cruiser', 'depcruise', ['src', '--config', '.dependency-cruiser.cjs']],
];

function jobsFromArgs() {
  const i = process.argv.indexOf('--jobs');
  const asked = i === -1 ? NaN : Number(process.argv[i + 1]);
  if (Number.isInteger(asked) && asked > 0) return asked;
  return Math.max(1, Math.min(2, availableParallelism()));
}

function run([name, bin, args]) {
  return new Promise((resolve) => {
    const started = Date.now();
    // npx would look the tool up again per call; node_modules/.bin is where npm put it.
    const command = bin === 'npm' ? bin : `node_modules/.bin/${bin}`;
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('error', (err) => resolve({ name, ok: false, text: `${name}: could not start ${bin}: ${err.message}\n`, ms: 0 }));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      const why = ok ? '' : `${name}: exited with ${signal ?? code}\n`;
      resolve({ name, ok, text: Buffer.concat(out).toString() + why, ms: Date.now() - started });
    });
  });
}

async function main() {
  const queue = [...CHECKS];
  const results = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const result = await run(next);
      process.stdout.write(`> ${result.name} (${(result.ms / 1000).toFixed(1)} s)\n${result.text}`);
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: jobsFromArgs() }, worker));
  const failed = results.filter((r) => !r.ok).map((r) => r.name);
  if (failed.length > 0) {
    process.stderr.write(`checks failed: ${failed.join(', ')}\n`);
    process.exitCode = 1;
  }
}

await main();
