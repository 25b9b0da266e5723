// Cold start (issue 2): launching `node bin/arbor.js` in a pty until the input prompt is
// visible, against `node -e "import('ink')"` until it exits, measured in the same run and
// interleaved so both see the same machine noise. Target: median ratio ≤ 1.6.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { arborBin, distUrl, repoRoot } from './lib/paths.js';
import { median, round } from './lib/stats.js';
import { startTerminal } from './lib/terminal.js';
import { tempArborHome } from './lib/tempHome.js';

export const name = 'cold-start';

const RUNS = 10;
// One uncounted launch of each first: the numbers then describe a warm disk cache, which
// is how a person starting arbor for the second time sees it, and the same for both sides.
const WARMUPS = 1;
const TARGET_RATIO = 1.6;
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

async function arborToPrompt(marker, offlineModel) {
  const h = tempArborHome('arbor-bench-cold-');
  const term = startTerminal({ file: process.execPath, args: [arborBin], cwd: h.cwd, env: h.env });
  try {
    const at = await term.waitFor((t) => t.screen().split('\n').some((line) => line.trim().startsWith(marker)), {
      what: `the input prompt "${marker}"`,
      timeoutMs: START_TIMEOUT_MS,
    });
    // Checked after the clock stopped: with no config and no keys, the offline model it is.
    await term.waitForText(offlineModel, { timeoutMs: 5000 }).catch(() => {
      throw new Error(`arbor did not start on the offline provider ("${offlineModel}" is not on screen)\n${term.describe()}`);
    });
    return at - term.startedAt;
  } finally {
    await term.dispose();
    h.cleanup();
  }
}

async function inkImportToExit() {
  const h = tempArborHome('arbor-bench-ink-');
  // cwd is the repository so `ink` resolves from its node_modules, as arbor's does.
  const term = startTerminal({ file: process.execPath, args: ['-e', "import('ink')"], cwd: repoRoot, env: h.env });
  try {
    let timer;
    const exit = await Promise.race([
      term.exited,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('node -e "import(\'ink\')" did not exit in time')), START_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    if (exit.exitCode !== 0) throw new Error(`node -e "import('ink')" exited with ${exit.exitCode}\n${term.describe()}`);
    return exit.at - term.startedAt;
  } finally {
    await term.dispose();
    h.cleanup();
  }
}

export async function run({ log } = { log: () => {} }) {
  const marker = await readyLine();
  const { OFFLINE_MODEL: offlineModel } = await import(distUrl('config/defaults.js'));
  const arbor = [];
  const ink = [];
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    // One after the other, never at once; the order alternates so neither side always runs
    // right after the other's disk and CPU traffic.
    const order = i % 2 === 0 ? ['arbor', 'ink'] : ['ink', 'arbor'];
    const sample = {};
    for (const which of order) sample[which] = which === 'arbor' ? await arborToPrompt(marker, offlineModel) : await inkImportToExit();
    const warmup = i < WARMUPS;
    if (!warmup) {
      arbor.push(sample.arbor);
      ink.push(sample.ink);
    }
    log(`run ${i + 1}/${WARMUPS + RUNS}: arbor ${sample.arbor.toFixed(0)} ms, ink ${sample.ink.toFixed(0)} ms${warmup ? ' (warm-up, not counted)' : ''}`);
  }
  const arborMedian = median(arbor);
  const inkMedian = median(ink);
  const ratio = arborMedian / inkMedian;
  // Each pair ran back to back, so its ratio sees the same moment's load; its median is a
  // cross-check on the ratio of medians when the machine is busy.
  const pairedRatio = median(arbor.map((a, i) => a / ink[i]));
  return [
    { metric: `arbor launch → input prompt visible (median of ${RUNS})`, value: round(arborMedian, 1), unit: 'ms', samples: arbor.map((v) => round(v, 1)) },
    { metric: `node -e "import('ink')" launch → exit (median of ${RUNS})`, value: round(inkMedian, 1), unit: 'ms', samples: ink.map((v) => round(v, 1)) },
    { metric: 'ratio arbor / ink (of the medians)', value: round(ratio, 2), unit: '×', target: `≤ ${TARGET_RATIO}`, pass: ratio <= TARGET_RATIO },
    { metric: 'ratio arbor / ink (median of back-to-back pairs)', value: round(pairedRatio, 2), unit: '×' },
  ];
}
