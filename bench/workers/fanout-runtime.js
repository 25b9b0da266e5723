// The runtime under test for the spawn fan-out benchmark, alone in this process so that
// process.cpuUsage() around a turn is the runtime's own CPU: the model server runs in
// another process. Driven over IPC: {id, cmd: 'turn', url, children} → CPU, wall time and
// what the store recorded.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { CHILD_PROMPT_RE, ROOT_PROMPT } from '../lib/fanoutScript.js';
import { distUrl } from '../lib/paths.js';
import { now } from '../lib/clock.js';

const { loadConfigFromTexts } = await import(distUrl('config/load.js'));
const { createRuntime } = await import(distUrl('runtime/runtime.js'));
// What X (kill all) in /agents does, so the kill-all row times the operator's own action.
const { killAll: killAllRuns } = await import(distUrl('ui/agents/actions.js'));

// Comparable with the other processes' times (lib/clock.js).

function configText(url, children) {
  return `
default_agent = "main"

[providers.fake]
type = "openai-compatible"
base_url = "${url}"
model = "fake-model"

[agents.main]
provider = "fake"
runtime_profile = "fanout"

[runtime_profiles.fanout]
parallel_tools = true

[delegation]
max_concurrent = ${children}
max_children_per_agent = ${children}
`;
}

/** The runtime whose turn is running (for killAll). */
let live;

async function turn({ url, children }) {
  const workdir = mkdtempSync(join(tmpdir(), 'arbor-bench-fanout-'));
  // No API keys and no retries to wait for: the environment is what the benchmark gives.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workdir };
  try {
    const loaded = loadConfigFromTexts([{ text: configText(url, children), file: join(workdir, 'config.toml') }], env);
    const runtime = createRuntime({ config: loaded.config, cwd: workdir, interactive: false, env });
    // Garbage from an earlier repeat is not this turn's cost (twice, around a turn of the
    // event loop, so what the last repeat's closed sockets and timers held goes too).
    globalThis.gc?.();
    await new Promise((r) => setImmediate(r));
    globalThis.gc?.();
    // When the root's first tool call reaches the runtime (its card appears). Calls start as
    // the reply streams them, so this can come before the reply's last byte.
    let toolCallsAt;
    // When the root began its next model step (every result collected and recorded): the
    // resume delay split in two around it. O(1) per update.
    let rootId;
    let rootStep2At;
    const unsubscribe = runtime.store.subscribe((s) => {
      if (toolCallsAt === undefined && s.transcript.some((i) => i.kind === 'tool')) toolCallsAt = now();
      rootId ??= s.activeRootRunId;
      if (rootStep2At === undefined && rootId !== undefined && (s.runs.get(rootId)?.iterations ?? 0) >= 2) rootStep2At = now();
    });
    // The turn's garbage collections (when, how long), for the resume
    // window's diagnosis: at 1,000 children a scavenge often falls inside it.
    const gcs = [];
    const toNow = now() - performance.now();
    const gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcs.push({ at: e.startTime + toNow, ms: e.duration });
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    const startAt = now();
    const cpu0 = process.cpuUsage();
    const heap0 = process.memoryUsage().heapUsed;
    const started = runtime.startTurn(ROOT_PROMPT);
    live = { runtime, ended: started.then(() => now()) };
    await started;
    live = undefined;
    const cpu = process.cpuUsage(cpu0);
    const endAt = now();
    unsubscribe();
    // GC entries are delivered after the collection, on a later turn of the event loop.
    await new Promise((r) => setImmediate(r));
    gcObserver.disconnect();
    globalThis.gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    const state = runtime.store.getState();
    const runs = state.runs.values();
    const root = runs.find((r) => r.kind === 'root');
    const kids = runs.filter((r) => r.kind === 'subagent');
    const statusCounts = {};
    for (const r of kids) statusCounts[r.status] = (statusCounts[r.status] ?? 0) + 1;
    // When the runtime ended each child (its store's endedAt, wall-clock ms), by child number:
    // beside the server's end of each answer, how far the runtime was behind at the resume.
    const childEndedAt = {};
    for (const r of kids) {
      const m = CHILD_PROMPT_RE.exec(r.task);
      if (m && r.endedAt !== undefined) childEndedAt[m[1]] = r.endedAt;
    }
    await runtime.dispose();
    return {
      startAt,
      endAt,
      cpuUserUs: cpu.user,
      cpuSystemUs: cpu.system,
      rootStatus: root?.status,
      rootError: root?.error,
      rootResult: root?.result,
      children: kids.length,
      statusCounts,
      rssBytes: process.memoryUsage().rss,
      heapGrowthBytes: heapAfter - heap0,
      toolCallsAt,
      rootStep2At,
      gcs: gcs.filter((g) => g.at >= startAt),
      childEndedAt,
    };
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
}

/** Kill all (X in /agents) while the turn's children are in flight: when it was asked, when
 * the call returned, when the turn ended, and how many runs were not ended then. */
async function killAll() {
  if (!live) throw new Error('killAll: no turn is running');
  const { runtime, ended } = live;
  const killAt = now();
  const killed = killAllRuns(runtime, false);
  const returnedAt = now();
  // The turn ends once every child has unwound (its tool call returned): read then, not on
  // every store update (a scan of 1,000 runs per update would be this worker's own cost).
  const endedAt = await ended;
  const open = runtime.store
    .getState()
    .runs.values()
    .filter((r) => !['completed', 'failed', 'killed', 'timed_out', 'cancelled'].includes(r.status)).length;
  return { killAt, returnedAt, endedAt, killed, open };
}

/** Phases of this process's turns on the CPU profile's clock (CLOCK_MONOTONIC µs), written
 * beside the profile when ARBOR_BENCH_PROFILE_DIR is set: `node bench/lib/profileWindow.js
 * <profile> <windows.json> resume-1000-` shows where the root's resume went. The bench gives
 * the server's times (epoch ms, this machine's clock); converted against this process's. */
const windows = {};

function mark({ phase, fromMs, toMs }) {
  const dir = process.env.ARBOR_BENCH_PROFILE_DIR;
  if (!dir) return {};
  const monoUs = Number(process.hrtime.bigint() / 1000n);
  const toMono = (ms) => monoUs + (ms - now()) * 1000;
  windows[phase] = [toMono(fromMs), toMono(toMs)];
  writeFileSync(join(dir, `fanout-windows-${process.pid}.json`), `${JSON.stringify(windows, null, 2)}\n`);
  return {};
}

const commands = { turn, killAll, mark };

process.on('message', async (/** @type {any} */ msg) => {
  try {
    const command = commands[msg.cmd];
    if (!command) throw new Error(`unknown command ${msg.cmd}`);
    process.send({ id: msg.id, ok: true, ...(await command(msg)) });
  } catch (err) {
    process.send({ id: msg.id, ok: false, error: err && err.stack ? err.stack : String(err) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ event: 'ready' });
