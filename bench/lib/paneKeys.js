// Driving arbor's /agents pane in a pty for the benchmarks (agents-pane.bench.js and its
// 1,000-child fan-out phase, fanoutPane.js): the input prompt, the pane header's counts and
// selection, and key → frame, timed on the emulated screen.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { distUrl, repoRoot } from './paths.js';

const { sleep } = await import(distUrl('support/terminal.js'));

/** The input prompt with its placeholder, as the screen shows it when arbor waits for input. */
export async function readyMarker() {
  const theme = await import(distUrl('ui/theme.js'));
  const catalog = JSON.parse(readFileSync(join(repoRoot, 'locales', 'en', 'ui.json'), 'utf8'));
  return `${theme.INPUT_PROMPT}${catalog.input.placeholder}`.trim();
}

/** The pane header's counts and selection ("… · 3/201"), or undefined when it is not on screen. */
export function header(screen) {
  const line = screen.split('\n').find((l) => l.startsWith('Agents ·'));
  if (!line) return undefined;
  const num = (re) => Number(re.exec(line)?.[1] ?? NaN);
  const sel = /· (\d+)\/(\d+)\s*$/.exec(line);
  return {
    line,
    running: num(/(\d+) running/),
    queued: num(/(\d+) queued/),
    paused: num(/(\d+) paused/),
    finished: num(/(\d+) finished/),
    awaiting: /awaiting approval/.test(line),
    selected: sel ? Number(sel[1]) : undefined,
    rows: sel ? Number(sel[2]) : undefined,
  };
}

export const isReady = (marker) => (t) =>
  t
    .screen()
    .split('\n')
    .some((l) => l.trim().startsWith(marker));

export async function typeLine(term, text) {
  term.type(text);
  await term.timeUntilText(text, { timeoutMs: 10000 });
  term.press('enter');
}

/** Presses j `count` times, or until `stop()` says so before a press; each time, the ms
 * until the selection counter moved on screen (a press that takes over `timeoutMs` fails). */
export async function keyToFrame(term, count, stop = () => false, timeoutMs = 10000) {
  const out = [];
  for (let i = 0; i < count && !stop(); i++) {
    await term.flush();
    // A frame can be read in pieces (a card printed to scrollback clears and redraws the
    // live region): the press waits for the header to be whole on screen.
    await term.timeUntil((t) => header(t.screen())?.selected !== undefined, { what: 'the pane header', timeoutMs });
    const before = header(term.screen());
    if (before.selected >= before.rows) throw new Error(`the selection reached the last row (${before.line})`);
    const want = before.selected + 1;
    const t0 = performance.now();
    term.type('j');
    const at = await term.timeUntil((t) => header(t.screen())?.selected === want, {
      what: `the selection to reach ${want}`,
      timeoutMs,
    });
    out.push(at - t0);
    // A person's key repeat, not faster: keys never share a read, and the pause varies so
    // the presses do not line up with the pane's refresh timer.
    await sleep(40 + Math.random() * 60);
  }
  return out;
}
