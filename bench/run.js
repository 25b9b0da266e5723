// Runs every bench/*.bench.js module (or those named on the command line), prints one
// table and writes bench/results.json. Each module exports `name` and `async run()`
// returning rows { metric, value, unit, target?, pass? }. The exit code is 1 when a
// benchmark errors or misses a target, so a missed target is never silently green.
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { benchDir } from './lib/paths.js';
import { formatTable } from './lib/table.js';

const SUFFIX = '.bench.js';

async function loadModules() {
  const files = readdirSync(benchDir)
    .filter((f) => f.endsWith(SUFFIX))
    .sort();
  const modules = [];
  for (const file of files) {
    const mod = await import(pathToFileURL(join(benchDir, file)).href);
    if (typeof mod.name !== 'string' || typeof mod.run !== 'function') {
      throw new Error(`bench/${file} must export \`name\` (string) and \`async run()\``);
    }
    modules.push({ file, name: mod.name, run: mod.run });
  }
  return modules;
}

function checkRows(name, rows) {
  if (!Array.isArray(rows)) throw new Error(`${name}: run() must return an array of rows`);
  for (const r of rows) {
    if (typeof r.metric !== 'string' || r.value === undefined) {
      throw new Error(`${name}: every row needs a metric and a value (got ${JSON.stringify(r)})`);
    }
    if (r.target !== undefined && typeof r.pass !== 'boolean') {
      throw new Error(`${name}: row "${r.metric}" has a target but no pass/fail`);
    }
  }
  return rows;
}

async function main() {
  const filters = process.argv.slice(2);
  const all = await loadModules();
  const unknown = filters.filter((f) => !all.some((m) => m.name === f || m.file === f || m.file === `${f}${SUFFIX}`));
  if (unknown.length > 0) {
    process.stderr.write(`unknown benchmark(s): ${unknown.join(', ')} (known: ${all.map((m) => m.name).join(', ')})\n`);
    process.exit(2);
  }
  const selected =
    filters.length === 0 ? all : all.filter((m) => filters.some((f) => m.name === f || m.file === f || m.file === `${f}${SUFFIX}`));

  const results = [];
  for (const mod of selected) {
    process.stderr.write(`▶ ${mod.name} ...\n`);
    const t0 = performance.now();
    let rows = [];
    let error;
    try {
      rows = checkRows(mod.name, await mod.run({ log: (msg) => process.stderr.write(`  ${mod.name}: ${msg}\n`) }));
    } catch (err) {
      error = err && err.stack ? err.stack : String(err);
      process.stderr.write(`✗ ${mod.name} failed: ${error}\n`);
    }
    const durationMs = Math.round(performance.now() - t0);
    process.stderr.write(`  ${mod.name} took ${(durationMs / 1000).toFixed(1)} s\n`);
    results.push({ name: mod.name, durationMs, rows, ...(error ? { error } : {}) });
  }

  const table = formatTable(
    results.flatMap((r) =>
      r.error
        ? [{ bench: r.name, metric: 'ERROR', value: r.error.split('\n')[0], unit: '', target: '', pass: false }]
        : r.rows.map((row) => ({ bench: r.name, ...row })),
    ),
  );
  process.stdout.write(`${table}\n`);

  const report = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    totalMemBytes: totalmem(),
    loadavgAtEnd: loadavg(),
    benchmarks: results,
  };
  const out = join(benchDir, 'results.json');
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stderr.write(`results written to ${out}\n`);

  const missed = results.flatMap((r) => r.rows.filter((row) => row.pass === false).map((row) => `${r.name}: ${row.metric}`));
  const errored = results.filter((r) => r.error).map((r) => r.name);
  if (missed.length) process.stderr.write(`targets missed: ${missed.join('; ')}\n`);
  if (errored.length) process.stderr.write(`benchmarks that errored: ${errored.join(', ')}\n`);
  process.exitCode = missed.length || errored.length ? 1 : 0;
}

main().catch((err) => {
  process.stderr.write(`${err && err.stack ? err.stack : String(err)}\n`);
  process.exit(2);
});
