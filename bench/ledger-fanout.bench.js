// Observed-effects ledger cost (issue 27): the 100-child fan-out where every child runs one
// `shell` command (it writes one file) in a git work tree of 5,000 committed files, with the
// ledger on (a work-tree snapshot before and after every command, the changed file hashed
// and diffed) and off (createRuntime({ledger: false})), interleaved in the same run so both
// see the same machine load. Wall time of the whole turn, medians over repeats.
// Target: ledger on / off ≤ 1.10.
import { join } from 'node:path';
import { benchDir } from './lib/paths.js';
import { median, round } from './lib/stats.js';
import { startWorker } from './lib/worker.js';

export const name = 'ledger-fanout';

const CHILDREN = 100;
const FILES = 5000;
const CHILD_DELAY_MS = 50;
const REPEATS = Number(process.env.ARBOR_BENCH_LEDGER_REPEATS ?? 7);
const TARGET_RATIO = 1.1;

/** @param {{ log?: (line: string) => void }} [options] */
export async function run({ log } = { log: () => {} }) {
  const server = await startWorker(join(benchDir, 'workers', 'model-server.js'));
  const runtime = await startWorker(join(benchDir, 'workers', 'ledger-runtime.js'), { execArgv: ['--expose-gc'] });
  const samples = { on: [], off: [] };
  const incomplete = [];
  let observedOk = true;
  try {
    await runtime.request({ cmd: 'setup', files: FILES });
    const turnOf = async (ledger) => {
      const { url } = await server.request({
        cmd: 'open',
        scenario: 'fanout-shell',
        options: { children: CHILDREN, childDelayMs: CHILD_DELAY_MS },
      });
      const t = await runtime.request({ cmd: 'turn', url, children: CHILDREN, ledger });
      await server.request({ cmd: 'close' });
      const complete = t.rootStatus === 'completed' && t.children === CHILDREN && t.completed === CHILDREN;
      if (!complete)
        incomplete.push(
          `ledger ${ledger ? 'on' : 'off'}: root ${t.rootStatus} (${t.rootError ?? ''}), ${t.completed}/${t.children} children`,
        );
      // With the ledger on, every command is observed through git and its file seen.
      if (ledger && (t.observedGit !== CHILDREN || t.observedFiles < CHILDREN || t.shellOk !== CHILDREN)) {
        observedOk = false;
        incomplete.push(`ledger on: ${t.observedGit} commands observed via git, ${t.observedFiles} files, ${t.shellOk} exit 0`);
      }
      return { wallMs: t.endAt - t.startAt, cpuMs: t.cpuMs, ...t };
    };
    // A warm-up pair compiles the code paths (and fills git's own caches) for both.
    await turnOf(true);
    await turnOf(false);
    for (let i = 0; i < REPEATS; i++) {
      // Alternate which goes first, so neither always follows the other.
      const order = i % 2 === 0 ? [true, false] : [false, true];
      for (const ledger of order) {
        const s = await turnOf(ledger);
        samples[ledger ? 'on' : 'off'].push(s);
        log(
          `repeat ${i + 1}/${REPEATS} ledger ${ledger ? 'on ' : 'off'}: ${s.wallMs.toFixed(0)} ms wall, ${s.cpuMs.toFixed(0)} ms CPU` +
            (ledger ? `, ${s.observedFiles} files observed` : ''),
        );
      }
    }
  } finally {
    await runtime.stop();
    await server.stop();
  }
  const on = median(samples.on.map((s) => s.wallMs));
  const off = median(samples.off.map((s) => s.wallMs));
  const ratio = on / off;
  const complete = incomplete.length === 0;
  return [
    {
      metric: `${CHILDREN} children each ran one shell command and completed; ledger on observed every command through git (all repeats)`,
      value: complete && observedOk,
      unit: '',
      target: 'yes',
      pass: complete && observedOk,
      ...(complete ? {} : { detail: incomplete.slice(0, 5) }),
    },
    {
      metric: `fan-out wall time, ledger on (median of ${REPEATS}, ${FILES}-file git tree)`,
      value: round(on, 1),
      unit: 'ms',
      samples: samples.on.map((s) => round(s.wallMs, 1)),
    },
    {
      metric: `fan-out wall time, ledger off (median of ${REPEATS})`,
      value: round(off, 1),
      unit: 'ms',
      samples: samples.off.map((s) => round(s.wallMs, 1)),
    },
    {
      metric: 'ledger on / off wall time (medians)',
      value: round(ratio, 3),
      unit: '×',
      target: `≤ ${TARGET_RATIO}`,
      pass: ratio <= TARGET_RATIO,
    },
    {
      metric: 'runtime CPU, ledger on / off (medians)',
      value: `${round(median(samples.on.map((s) => s.cpuMs)), 0)} / ${round(median(samples.off.map((s) => s.cpuMs)), 0)}`,
      unit: 'ms',
    },
  ];
}
