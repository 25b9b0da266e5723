// Cold start (issues 2 and 12): launching arbor in a pty until the input prompt is visible,
// both the installed package (npm pack + npm install -g into a temp prefix,
// bench/lib/installed.js) and the checkout's bin/arbor.js, against `node -e "import('ink')"`
// until it exits, measured in the same run and interleaved so all three see the same machine
// noise. Targets: installed ratio ≤ 1.2, checkout ratio ≤ 1.6.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { arborBin, distUrl, repoRoot } from './lib/paths.js';
import { installedArbor } from './lib/installed.js';
import { median, round } from './lib/stats.js';
// The pty harness and temp home the tests use, compiled by `npm run build` (Node 20 runs no TypeScript).
const { startTerminal } = await import(distUrl('support/terminal.js'));
const { tempArborHome } = await import(distUrl('support/tempHome.js'));

export const name = 'cold-start';

const RUNS = 10;
// One uncounted launch of each first: the numbers then describe a warm disk cache, which
// is how a person starting arbor for the second time sees it, and the same for both sides.
const WARMUPS = 1;
const TARGET_RATIO = 1.6;
const TARGET_INSTALLED_RATIO = 1.2;
const START_TIMEOUT_MS = 30000;

/** What the empty input line shows: the prompt marker followed by the placeholder. Read from
 * the build and the English catalog, so the benchmark follows the UI when either changes. */
async function readyLine() {
  const theme = await import(distUrl('ui/theme.js'));
  const catalog = JSON.parse(readFileSync(join(repoRoot, 'locales', 'en', 'ui.json'), 'utf8'));
  const placeholder = catalog?.input?.placeholder;
  if (typeof theme.INPUT_PROMPT !== 'string' || typeof placeholder !== 'string') {
    throw new Error('cannot tell what the input line shows: INPUT_PROMPT or ui:input.placeholder is missing');
  }
  return `${theme.INPUT_PROMPT}${placeholder}`.trim();
}

async function arborToPrompt(bin, marker, offlineModel) {
  const h = tempArborHome({ prefix: 'arbor-bench-cold-', fastTimings: false });
  const term = await startTerminal({ command: process.execPath, args: [bin], cwd: h.dir, env: h.env });
  try {
    const at = await term.timeUntil(
      (t) =>
        t
          .screen()
          .split('\n')
          .some((line) => line.trim().startsWith(marker)),
      {
        what: `the input prompt "${marker}"`,
        timeoutMs: START_TIMEOUT_MS,
      },
    );
    // Checked after the clock stopped: with no config and no keys, the offline model it is.
    await term.timeUntilText(offlineModel, { timeoutMs: 5000 }).catch(() => {
      throw new Error(`arbor did not start on the offline provider ("${offlineModel}" is not on screen)\n${term.describe()}`);
    });
    return at - term.startedAt;
  } finally {
    await term.dispose();
    h.cleanup();
  }
}

/** `production`: the same import with NODE_ENV=production (React's production builds, as
 * arbor's bundle has), a diagnosis row beside the floor the targets are set against. */
async function inkImportToExit(production = false) {
  const h = tempArborHome({ prefix: 'arbor-bench-ink-', fastTimings: false });
  // cwd is the repository so `ink` resolves from its node_modules, as arbor's does.
  const env = production ? { ...h.env, NODE_ENV: 'production' } : h.env;
  const term = await startTerminal({ command: process.execPath, args: ['-e', "import('ink')"], cwd: repoRoot, env });
  try {
    let timer;
    const exit = await Promise.race([
      term.exited,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('node -e "import(\'ink\')" did not exit in time')), START_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    if (exit.exitCode !== 0) throw new Error(`node -e "import('ink')" exited with ${exit.exitCode}\n${term.describe()}`);
    return term.exitedAt - term.startedAt;
  } finally {
    await term.dispose();
    h.cleanup();
  }
}

/** @param {{ log?: (line: string) => void }} [options] */
export async function run({ log } = { log: () => {} }) {
  const marker = await readyLine();
  const { OFFLINE_MODEL: offlineModel } = await import(distUrl('config/defaults.js'));
  const installed = installedArbor();
  log(`installed ${installed.tarball} (${(installed.packedBytes / 1024).toFixed(0)} KiB) into ${installed.prefix}`);
  const launch = {
    installed: () => arborToPrompt(installed.bin, marker, offlineModel),
    checkout: () => arborToPrompt(arborBin, marker, offlineModel),
    ink: () => inkImportToExit(),
    inkProduction: () => inkImportToExit(true),
  };
  const samples = { installed: [], checkout: [], ink: [], inkProduction: [] };
  const orders = [
    ['installed', 'checkout', 'ink', 'inkProduction'],
    ['ink', 'inkProduction', 'installed', 'checkout'],
    ['checkout', 'inkProduction', 'ink', 'installed'],
  ];
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    // One after the other, never at once; the order rotates so no side always runs right
    // after another's disk and CPU traffic.
    const sample = {};
    for (const which of orders[i % orders.length]) sample[which] = await launch[which]();
    const warmup = i < WARMUPS;
    if (!warmup) for (const which of Object.keys(samples)) samples[which].push(sample[which]);
    log(
      `run ${i + 1}/${WARMUPS + RUNS}: installed ${sample.installed.toFixed(0)} ms, checkout ${sample.checkout.toFixed(0)} ms, ink ${sample.ink.toFixed(0)} ms, ink (NODE_ENV=production) ${sample.inkProduction.toFixed(0)} ms${warmup ? ' (warm-up, not counted)' : ''}`,
    );
  }
  const inkMedian = median(samples.ink);
  const rows = [];
  /** @type {[string, string, number][]} */
  const sides = [
    ['installed', 'installed arbor (npm install -g)', TARGET_INSTALLED_RATIO],
    ['checkout', 'checkout bin/arbor.js', TARGET_RATIO],
  ];
  for (const [which, what] of sides) {
    rows.push({
      metric: `${what} launch → input prompt visible (median of ${RUNS})`,
      value: round(median(samples[which]), 1),
      unit: 'ms',
      samples: samples[which].map((v) => round(v, 1)),
    });
  }
  rows.push({
    metric: `node -e "import('ink')" launch → exit (median of ${RUNS})`,
    value: round(inkMedian, 1),
    unit: 'ms',
    samples: samples.ink.map((v) => round(v, 1)),
  });
  for (const [which, what, target] of sides) {
    const ratio = median(samples[which]) / inkMedian;
    // Each trio ran back to back, so its ratio sees the same moment's load; its median is a
    // cross-check on the ratio of medians when the machine is busy.
    const paired = median(samples[which].map((a, i) => a / samples.ink[i]));
    rows.push({
      metric: `ratio ${what} / ink (of the medians)`,
      value: round(ratio, 2),
      unit: '×',
      target: `≤ ${target}`,
      pass: ratio <= target,
    });
    rows.push({ metric: `ratio ${what} / ink (median of back-to-back runs)`, value: round(paired, 2), unit: '×' });
  }
  // The floor loads Ink unbundled with React's development builds (NODE_ENV unset), as it
  // always has; the bundle has the production builds. This row shows the stricter comparison.
  const prodMedian = median(samples.inkProduction);
  rows.push({
    metric: `diagnosis: NODE_ENV=production node -e "import('ink')" (median of ${RUNS})`,
    value: round(prodMedian, 1),
    unit: 'ms',
    samples: samples.inkProduction.map((v) => round(v, 1)),
  });
  rows.push({
    metric: 'diagnosis: ratio installed arbor / production ink',
    value: round(median(samples.installed) / prodMedian, 2),
    unit: '×',
  });
  return rows;
}
