// Where a process's CPU went within one phase of a benchmark: reads a V8 .cpuprofile
// (ARBOR_BENCH_PROFILE_DIR) and prints the functions with the most self and total time,
// counting only samples between `from` and `to` (CLOCK_MONOTONIC µs, the profile's own
// clock; agents-pane.bench.js writes its phases' windows next to the profiles).
//
//   node bench/lib/profileWindow.js <profile> [<windows.json> <phase>] [top]
import { readFileSync } from 'node:fs';

/** `from`/`to` bound one window; `from` may instead be a list of [from, to] windows (the
 * same phase repeated), whose samples are added up.
 * @param {any} profile
 * @param {number | number[][]} [from]
 * @param {number} [to] */
export function summarize(profile, from = -Infinity, to = Infinity) {
  const spans = Array.isArray(from) ? from : [[from, to]];
  const inside = (t) => spans.some(([a, b]) => t >= a && t <= b);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const spent = new Map();
  let at = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const d = profile.timeDeltas[i] ?? 0;
    at += d;
    if (!inside(at)) continue;
    spent.set(profile.samples[i], (spent.get(profile.samples[i]) ?? 0) + d);
    total += d;
  }
  const key = (n) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
  const self = new Map();
  const inclusive = new Map();
  for (const [id, us] of spent) {
    const k = key(byId.get(id));
    self.set(k, (self.get(k) ?? 0) + us);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const ck = key(byId.get(cur));
      if (seen.has(ck)) continue;
      seen.add(ck);
      inclusive.set(ck, (inclusive.get(ck) ?? 0) + us);
    }
  }
  return { totalUs: total, self, inclusive };
}

function table(map, totalUs, n) {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, windowsFile, phase, top = '40'] = process.argv.slice(2);
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  // A phase named exactly, or every window whose name starts with it (`resume-1000` sums
  // resume-1000-1, resume-1000-2, ...).
  const all = windowsFile ? JSON.parse(readFileSync(windowsFile, 'utf8')) : undefined;
  const spans = !all
    ? [[-Infinity, Infinity]]
    : all[phase]
      ? [all[phase]]
      : Object.keys(all)
          .filter((k) => k.startsWith(phase))
          .map((k) => all[k]);
  if (spans.length === 0) throw new Error(`no window named ${phase} (or starting with it) in ${windowsFile}`);
  const { totalUs, self, inclusive } = summarize(profile, spans);
  const idle = self.get('(idle) :-1') ?? 0;
  console.log(`${(totalUs / 1000).toFixed(0)} ms sampled, ${((totalUs - idle) / 1000).toFixed(0)} ms busy`);
  console.log(`--- self\n${table(self, totalUs, Number(top))}`);
  console.log(`--- total\n${table(inclusive, totalUs, Number(top) * 2)}`);
}
