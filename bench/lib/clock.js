// One clock for timestamps compared across processes (the model server's arrival and end
// times against the runtime's or the SDK baseline's). performance.timeOrigin is read from
// the wall clock once, at start, beside a monotonic reading it is paired with; on a loaded
// machine a process can lose the core between the two, and its timeOrigin + now() then
// runs up to tens of milliseconds off the wall clock (−10 and −17 ms measured in fresh
// processes at load average 15), which went straight into every cross-process latency.
// Here the offset to Date.now() is measured once, over a few milliseconds, and applied.

const SAMPLE_MS = 5;

function measureOffset() {
  const diffs = [];
  const start = Date.now();
  while (Date.now() - start < SAMPLE_MS) diffs.push(Date.now() - (performance.timeOrigin + performance.now()));
  const sorted = [...diffs].sort((a, b) => a - b);
  const mid = sorted[Math.floor(sorted.length / 2)];
  // Date.now() truncates to the millisecond: over readings at every phase it reads half a
  // millisecond low on average. A reading with a preemption between its two calls is left out.
  const kept = diffs.filter((d) => Math.abs(d - mid) <= 1.5);
  return kept.reduce((a, b) => a + b, 0) / kept.length + 0.5;
}

const offset = measureOffset();

/** Wall-clock milliseconds with sub-millisecond steps, comparable between processes. */
export const now = () => performance.timeOrigin + performance.now() + offset;
