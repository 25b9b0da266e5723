// Where a process's CPU went within one phase of a benchmark: reads a V8 .cpuprofile
// (ARBOR_BENCH_PROFILE_DIR) and prints the functions with the most self and total time,
// counting only samples between `from` and `to` (CLOCK_MONOTONIC µs, the profile's own
// clock; agents-pane.bench.js writes its phases' windows next to the profiles).
//
//   node bench/lib/profileWindow.js <profile> [<windows.json> <phase>] [top]
import { readFileSync } from 'node:fs';

export function summarize(profile, from = -Infinity, to = Infinity) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const spent = new Map();
  let at = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const d = profile.timeDeltas[i] ?? 0;
    at += d;
    if (at < from || at > to) continue;
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
  const [from, to] = windowsFile ? JSON.parse(readFileSync(windowsFile, 'utf8'))[phase] : [-Infinity, Infinity];
  const { totalUs, self, inclusive } = summarize(profile, from, to);
  const idle = self.get('(idle) :-1') ?? 0;
  console.log(`${(totalUs / 1000).toFixed(0)} ms sampled, ${((totalUs - idle) / 1000).toFixed(0)} ms busy`);
  console.log(`--- self\n${table(self, totalUs, Number(top))}`);
  console.log(`--- total\n${table(inclusive, totalUs, Number(top) * 2)}`);
}
