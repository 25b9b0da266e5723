// The /agents pane under load (issue 6): 200 live children in a three-level delegation tree
// (the root turn delegates to 10 `mid` agents at once, each mid to 19 `leaf` agents at once;
// every leaf streams a word every 500 ms, so all 200 stay live and keep changing) against a
// loopback model in another process, with arbor interactive in a pty: the installed package
// (npm pack + npm install -g into a temp prefix, bench/lib/installed.js), as users run it.
//
// Measured, per run (a fresh arbor each time):
// - key → frame: `j` pressed in the open pane until the header's selection counter shows the
//   move on the emulated screen. This is a pty round trip (input parse, React render, Ink's
//   frame throttle and layout, the write, the emulator) — an upper bound on the frame time,
//   named as such. The same presses after kill all (same rows, nothing updating) are the floor.
// - arbor's CPU share (from /proc) over a window with the pane open and 200 live runs, and
//   with the chat view instead of the pane, for comparison; the frames drawn meanwhile
//   (output bursts seen by the emulator), and the CPU per frame that implies.
// - kill all: from `y` (after `X`) until the model server has seen every tree request end
//   (each run's model stream aborted), and until the pane shows 0 running / queued / paused.
// - RSS per child: (RSS with the 200 children finished − RSS before spawning) / 200, after a
//   warm-up turn so the provider code is already loaded in the "before" number. Both sides
//   are settled: "before" follows a full GC asked over the inspector; "after" is taken 2 s
//   after kill all, once arbor's own idle collection (src/cli/idleCollector.ts) has run.
//   The RSS at the moment the pane shows nothing live (garbage of the live phase still
//   committed) is reported beside it as a diagnosis.
// Diagnosis, no target: V8 heap after a forced full GC (asked over the inspector, which arbor
// is started with on a loopback port) before and after, per child — what the children really
// keep, apart from garbage not yet collected.
// - the floor under the CPU: the same tree run headless (`arbor -p`, nothing drawn) after
//   each run; (CPU with the pane open − that) / frames drawn is what a frame costs to draw.
//   Frames after which the emulated screen reads the same as before are counted: a frame
//   should be written only when something visible changed.
// Targets: p95 frame < 16 ms and ≤ 1.2× the nothing-live p95 of the same runs; ≤ 5 ms of
// CPU per drawn frame; no frame that changes nothing; kill all < 100 ms; < 300 KB per
// finished child (issues 6 and 24).
// With ARBOR_BENCH_PROFILE_DIR, each run also writes agents-pane-windows-<pid>.json there:
// when each phase ran on the CPU profile's clock (CLOCK_MONOTONIC µs), to cut arbor's
// profile to the pane window (bench/lib/profileWindow.js).
// ARBOR_BENCH_AGENTS_RUNS=1 runs once (with ARBOR_BENCH_PROFILE_DIR, for a profile).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchDir, distUrl } from './lib/paths.js';
import { installedArbor } from './lib/installed.js';
import { closeRun, startArbor, withScreen } from './lib/arborTerm.js';
import { processCpuMs, processRssBytes } from './lib/procStat.js';
import { median, percentile, round } from './lib/stats.js';
import { startWorker } from './lib/worker.js';
import { header, isReady, keyToFrame, readyMarker, typeLine } from './lib/paneKeys.js';
import { FANOUT_CHILD_MS, FANOUT_CHILDREN, fanoutPaneRun } from './lib/fanoutPane.js';
import { AGENTS_BENCH, treeConfig } from './workers/agents-tree.js';
// The pty harness and temp home the tests use, compiled by `npm run build` (Node 20 runs no TypeScript).
const { sleep } = await import(distUrl('support/terminal.js'));
const { tempArborHome, writeConfig } = await import(distUrl('support/tempHome.js'));

export const name = 'agents-pane';

const MIDS = 10;
const LEAVES_PER_MID = 19;
const CHILDREN = MIDS + MIDS * LEAVES_PER_MID;
const LEAF_CHUNK_MS = 500;
const LEAF_CHUNKS = 1200; // 10 minutes of streaming: the leaves outlive every run
const RUNS = Number(process.env.ARBOR_BENCH_AGENTS_RUNS ?? 3);
const KEY_PRESSES = 60;
const IDLE_KEY_PRESSES = 30;
const CPU_WINDOW_MS = 5000;
const RSS_SETTLE_MS = 2000;
const FRAME_GAP_MS = 5;
/** Synchronized output, begin and end (DEC mode 2026). */
const BSU = '\x1b[?2026h';
const ESU = '\x1b[?2026l';
const COLS = 140;
const ROWS = 40;
const TARGET_P95_FRAME_MS = 16;
const TARGET_P95_FLOOR_RATIO = 1.2;
const TARGET_DRAW_MS_PER_FRAME = 5;
const TARGET_KILL_MS = 100;
const TARGET_KB_PER_CHILD = 300;
/** Issue 24: /agents usable while a 1,000-child fan-out runs. */
const TARGET_FANOUT_P95_MS = 50;

const abs = () => performance.timeOrigin + performance.now();
/** CLOCK_MONOTONIC in µs: the clock of V8's CPU profiles, so a profile can be cut to a window. */
const mono = () => Number(process.hrtime.bigint() / 1000n);

/** A loopback port nobody listens on right now, for arbor's inspector. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/** What a frame that changed nothing wrote: its size, and where its bytes first differ from
 * the frame before it (which drew the same screen). */
function describeSame(frame, before) {
  let i = 0;
  while (i < frame.length && frame[i] === before[i]) i++;
  const around = (t) => JSON.stringify(t.slice(Math.max(0, i - 80), i + 120));
  return `${frame.split('\n').length - 1} rows written; first byte apart at ${i}: ${around(frame)} where the frame before had ${around(before)}`;
}

/** arbor's CPU over `ms` of wall time, as a share of one core, and the frames it drew
 * meanwhile: output chunks closer than FRAME_GAP_MS to the previous one belong to the same
 * frame (a frame can span several pty reads). `unchanged`: frames after which the emulated
 * screen, colours and attributes included, was the same as before them (written, but
 * nothing visible changed). */
async function cpuShare(term, ms) {
  let frames = 0;
  let unchanged = 0;
  let last = -Infinity;
  await term.flush();
  // The screen as the last whole frame left it, and as the last chunk parsed left it: when a
  // new frame starts, the one before it is complete and is compared with the frame before.
  let frameEnd = term.styledScreen();
  let latest = frameEnd;
  let seen = term.parsedChunkCount();
  // Inside a synchronized update (Ink brackets a frame with BSU … ESU, in separate writes):
  // a piece read later than FRAME_GAP_MS still belongs to the frame it closes.
  let open = false;
  let frameText = '';
  let lastFrameText = '';
  /** What the first frame that changed nothing wrote (escapes shown), for the log. */
  let sample;
  const counting = term
    .timeUntil(
      (t) => {
        const at = performance.now();
        // Only the chunks the emulator has parsed: the screen read below is theirs. Taking
        // every chunk read so far (some not parsed yet) paired a frame's bytes with the
        // screen from before them, and the next check, with nothing new to take, never read
        // the screen they drew: a frame that changed the screen then counted as unchanged.
        const upTo = t.parsedChunkCount();
        const text = t
          .rawChunks(seen)
          .slice(0, upTo - seen)
          .join('');
        seen = upTo;
        // Checked once more at the start, with nothing new parsed.
        if (text === '') return false;
        if (at - last > FRAME_GAP_MS && !open) {
          if (frames > 0 && latest === frameEnd) {
            unchanged++;
            sample ??= { frame: frameText, before: lastFrameText };
          }
          frameEnd = latest;
          frames++;
          lastFrameText = frameText;
          frameText = '';
        }
        frameText += text;
        const begin = text.lastIndexOf(BSU);
        const end = text.lastIndexOf(ESU);
        if (begin > end) open = true;
        else if (end >= 0) open = false;
        last = at;
        latest = t.styledScreen();
        return false;
      },
      { what: 'the end of the CPU window', timeoutMs: ms },
    )
    .catch(() => {});
  const c0 = processCpuMs(term.pid).totalMs;
  const t0 = performance.now();
  await sleep(ms);
  const cpuMs = processCpuMs(term.pid).totalMs - c0;
  const wall = performance.now() - t0;
  await counting;
  // The last frame is judged only if the window did not end inside it.
  if (frames > 0 && !open && latest === frameEnd) {
    unchanged++;
    sample ??= { frame: frameText, before: lastFrameText };
  }
  return {
    share: cpuMs / wall,
    fps: (frames * 1000) / wall,
    cpuPerFrameMs: frames ? cpuMs / frames : NaN,
    frames,
    unchanged,
    unchangedSample: sample === undefined ? undefined : describeSame(sample.frame, sample.before),
  };
}

async function waitStats(server, pred, what, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const { stats } = await server.request({ cmd: 'stats' });
    if (pred(stats)) return stats;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(stats)}`);
    await sleep(50);
  }
}

/** The floor under the pane's CPU: the same tree run headless (`arbor -p`, nothing drawn),
 * its CPU over the same window once all children are live: what streaming 200 children
 * costs arbor's runtime whatever the screen does. */
async function headlessFloor(server) {
  const { url } = await server.request({
    cmd: 'open',
    scenario: 'agents-tree',
    options: { mids: MIDS, leavesPerMid: LEAVES_PER_MID, leafChunkMs: LEAF_CHUNK_MS, leafChunks: LEAF_CHUNKS },
  });
  const h = tempArborHome({ prefix: 'arbor-bench-agents-headless-', fastTimings: false });
  writeConfig(h.dir, treeConfig(url, { children: CHILDREN }));
  const child = spawn(process.execPath, [installedArbor().bin, '--trust-project', '-p', AGENTS_BENCH.rootPrompt], {
    cwd: h.dir,
    env: h.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await waitStats(
      server,
      (s) => s.open.leaf === MIDS * LEAVES_PER_MID && s.counts.mid === MIDS,
      `${CHILDREN} live children (headless)`,
      60000,
    ).catch((err) => {
      throw new Error(`${err.message}\narbor -p stderr:\n${stderr}`, { cause: err });
    });
    await sleep(1000);
    const c0 = processCpuMs(child.pid).totalMs;
    const t0 = performance.now();
    await sleep(CPU_WINDOW_MS);
    const share = (processCpuMs(child.pid).totalMs - c0) / (performance.now() - t0);
    const stillLive = (await server.request({ cmd: 'stats' })).stats.open;
    if (stillLive.leaf !== MIDS * LEAVES_PER_MID)
      throw new Error(`children ended during the headless window: ${JSON.stringify(stillLive)}`);
    return share;
  } finally {
    child.kill('SIGKILL');
    await exited;
    h.cleanup();
    await server.request({ cmd: 'close' });
  }
}

async function oneRun(server, heapProbe, marker, log, i) {
  const { url } = await server.request({
    cmd: 'open',
    scenario: 'agents-tree',
    options: { mids: MIDS, leavesPerMid: LEAVES_PER_MID, leafChunkMs: LEAF_CHUNK_MS, leafChunks: LEAF_CHUNKS },
  });
  const h = tempArborHome({ prefix: 'arbor-bench-agents-', fastTimings: false });
  writeConfig(h.dir, treeConfig(url, { children: CHILDREN }));
  const inspectPort = await freePort();
  const term = await startArbor(h, { nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`], cols: COLS, rows: ROWS });
  const heapUsed = async () => (await heapProbe.request({ cmd: 'heap', port: inspectPort })).usedBytes;
  try {
    await term.timeUntil(isReady(marker), { what: 'the input prompt', timeoutMs: 30000 });
    await sleep(300); // raw mode: see streaming.bench.js
    // Warm-up: loads the provider code, so "before" below does not charge it to children.
    await typeLine(term, AGENTS_BENCH.warmupPrompt);
    await term.timeUntilText(AGENTS_BENCH.warmupAnswer, { where: 'all', timeoutMs: 20000 });
    await term.timeUntil(isReady(marker), { what: 'the input prompt after the warm-up', timeoutMs: 10000 });

    await sleep(1000);
    // "Before" is taken after a full collection, as "after" is after arbor's own idle one:
    // garbage of the warm-up must not hide what the children keep.
    const heapBefore = await heapUsed();
    await sleep(500);
    const rssBefore = processRssBytes(term.pid);

    // Spawn the tree and wait until the server sees every child's request streaming.
    const sentAt = abs();
    await typeLine(term, AGENTS_BENCH.rootPrompt);
    const live = await waitStats(
      server,
      // Mids have made their one model call and wait on their leaves; leaves stream.
      (s) => s.open.leaf === MIDS * LEAVES_PER_MID && s.counts.mid === MIDS,
      `${CHILDREN} live children`,
      60000,
    );
    const spawnMs = live.lastLeafArriveAt - sentAt;
    await sleep(1000);
    const windows = {};
    const timed = async (key, fn) => {
      const from = mono();
      const out = await fn();
      windows[key] = [from, mono()];
      return out;
    };
    const chat = await timed('chat', () => cpuShare(term, CPU_WINDOW_MS));

    await typeLine(term, '/agents');
    await term.timeUntil((t) => header(t.screen())?.running === CHILDREN, {
      what: `the pane showing ${CHILDREN} running`,
      timeoutMs: 20000,
    });
    await sleep(1000);
    const pane = await timed('pane', () => cpuShare(term, CPU_WINDOW_MS));
    const frames = await timed('keys', () => keyToFrame(term, KEY_PRESSES));
    const stillLive = (await server.request({ cmd: 'stats' })).stats.open;
    if (stillLive.leaf !== MIDS * LEAVES_PER_MID) throw new Error(`children ended during the measurement: ${JSON.stringify(stillLive)}`);

    // Kill all: X asks, y confirms.
    term.type('X');
    await term.timeUntilText('Press y to confirm', { timeoutMs: 10000 });
    await sleep(200);
    const yAt = abs();
    const yPerf = performance.now();
    term.type('y');
    const shownAt = await term.timeUntil(
      (t) => {
        const hd = header(t.screen());
        return hd !== undefined && hd.running === 0 && hd.queued === 0 && hd.paused === 0 && !hd.awaiting;
      },
      { what: 'the pane showing nothing live', timeoutMs: 20000 },
    );
    const rssAtKill = processRssBytes(term.pid);
    const ended = await waitStats(server, (s) => s.treeEnded, 'every tree request to end', 20000);
    const killMs = ended.lastTreeEndAt - yAt;
    const killShownMs = shownAt - yPerf;
    await term.timeUntilText(`killed ${CHILDREN + 1} runs`, { timeoutMs: 5000 });
    await term.flush();
    // As keyToFrame: a frame can be read in pieces (a card printed to scrollback clears and
    // redraws the live region), so the header is read once it is whole on screen.
    await term.timeUntil((t) => header(t.screen()) !== undefined, { what: 'the pane header after kill all', timeoutMs: 5000 });
    const after = header(term.screen());
    const killedAll = after.finished === CHILDREN;

    await sleep(RSS_SETTLE_MS);
    const rssAfter = processRssBytes(term.pid);
    const kbPerChild = (rssAfter - rssBefore) / 1024 / CHILDREN;

    // Floor: the same presses over the same rows, now that nothing is live or updating.
    const idle = await timed('idleKeys', () => keyToFrame(term, IDLE_KEY_PRESSES));
    // With a profile asked for: when each phase ran, on the profile's clock, to cut it by.
    if (process.env.ARBOR_BENCH_PROFILE_DIR)
      writeFileSync(join(process.env.ARBOR_BENCH_PROFILE_DIR, `agents-pane-windows-${term.pid}.json`), JSON.stringify(windows));

    // Last: Node prints "Debugger attached." over the screen when the probe connects.
    const heapAfter = await heapUsed();
    const heapKbPerChild = (heapAfter - heapBefore) / 1024 / CHILDREN;
    const rssAfterGc = processRssBytes(term.pid);

    term.press('esc');
    await sleep(500);
    term.press('ctrl-d');
    await term.exitsWithin(10000);

    const r = {
      frames,
      idle,
      p50: median(frames),
      p95: percentile(frames, 95),
      idleP50: median(idle),
      idleP95: percentile(idle, 95),
      paneCpu: pane.share,
      chatCpu: chat.share,
      paneFps: pane.fps,
      chatFps: chat.fps,
      paneCpuPerFrame: pane.cpuPerFrameMs,
      paneFrames: pane.frames,
      paneUnchanged: pane.unchanged,
      paneUnchangedSample: pane.unchangedSample,
      killMs,
      killShownMs,
      killedAll,
      outcomes: ended.outcomes,
      spawnMs,
      rssBefore,
      rssAfter,
      kbPerChild,
      kbPerChildAtKill: (rssAtKill - rssBefore) / 1024 / CHILDREN,
      heapBefore,
      heapAfter,
      heapKbPerChild,
      rssAfterGc,
    };
    log(
      `run ${i + 1}/${RUNS}: ${CHILDREN} live in ${spawnMs.toFixed(0)} ms; key→frame p50 ${r.p50.toFixed(1)} / p95 ${r.p95.toFixed(1)} ms ` +
        `(nothing live: ${r.idleP50.toFixed(1)} / ${r.idleP95.toFixed(1)}); CPU pane ${(pane.share * 100).toFixed(1)}% at ${pane.fps.toFixed(1)} frames/s (${pane.cpuPerFrameMs.toFixed(1)} ms CPU/frame), chat ${(chat.share * 100).toFixed(1)}% at ${chat.fps.toFixed(1)} frames/s; ` +
        `kill all ${killMs.toFixed(0)} ms (screen ${killShownMs.toFixed(0)} ms, ${JSON.stringify(ended.outcomes)}); ` +
        `RSS ${(rssBefore / 1048576).toFixed(1)} → ${(rssAfter / 1048576).toFixed(1)} MiB = ${kbPerChild.toFixed(0)} KB/child; ` +
        `after a full GC: heap ${(heapBefore / 1048576).toFixed(1)} → ${(heapAfter / 1048576).toFixed(1)} MiB = ${heapKbPerChild.toFixed(0)} KB/child, RSS ${(rssAfterGc / 1048576).toFixed(1)} MiB`,
    );
    return r;
  } catch (err) {
    throw await withScreen(term, err);
  } finally {
    await closeRun(term, h, server);
  }
}

/** @param {{ log: (msg: string) => void }} [options] */
export async function run({ log } = { log: () => {} }) {
  const marker = await readyMarker();
  const server = await startWorker(join(benchDir, 'workers', 'model-server.js'));
  const heapProbe = await startWorker(join(benchDir, 'workers', 'agents-heap.js'), { execArgv: ['--experimental-websocket'] });
  const runs = [];
  const fanouts = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const r = await oneRun(server, heapProbe, marker, log, i);
      // Interleaved with the pane runs, so both see the same machine.
      r.headlessCpu = await headlessFloor(server);
      r.drawCpuPerFrame = ((r.paneCpu - r.headlessCpu) * 1000) / r.paneFps;
      log(
        `run ${i + 1}/${RUNS}: the same tree headless (arbor -p): CPU ${(r.headlessCpu * 100).toFixed(1)}%; ` +
          `so drawing costs ${r.drawCpuPerFrame.toFixed(2)} ms CPU per frame; ${r.paneUnchanged} of ${r.paneFrames} frames changed nothing on screen` +
          (r.paneUnchangedSample ? ` (the first wrote ${r.paneUnchangedSample})` : ''),
      );
      runs.push(r);
      // The pane while a 1,000-child fan-out runs (issue 24), interleaved with the runs above.
      const f = await fanoutPaneRun(server, marker, { cols: COLS, rows: ROWS });
      log(
        `run ${i + 1}/${RUNS}: /agents during a ${FANOUT_CHILDREN}-child fan-out: ${f.live.length} presses while children were live ` +
          `(${f.duringStarts} before every child's request was in), key→frame p50 ${median(f.live).toFixed(1)} / p95 ${percentile(f.live, 95).toFixed(1)} ms ` +
          `(after, nothing live: ${median(f.floor).toFixed(1)} / ${percentile(f.floor, 95).toFixed(1)}); results ${JSON.stringify(f.resultCheck)}`,
      );
      fanouts.push(f);
    }
  } finally {
    await heapProbe.stop();
    await server.stop();
  }
  const m = (key) => median(runs.map((r) => r[key]));
  const all = (key) => runs.flatMap((r) => r[key]);
  const p95 = percentile(all('frames'), 95);
  const idleP95 = percentile(all('idle'), 95);
  const p95Ratio = p95 / idleP95;
  const drawMs = m('drawCpuPerFrame');
  const unchanged = runs.reduce((n, r) => n + r.paneUnchanged, 0);
  const kill = m('killMs');
  const kb = m('kbPerChild');
  const killedAll = runs.every((r) => r.killedAll);
  const fanLive = fanouts.flatMap((f) => f.live);
  const fanFloor = fanouts.flatMap((f) => f.floor);
  const fanP95 = percentile(fanLive, 95);
  const fanResultsOk = fanouts.every((f) => f.resultCheck.results === FANOUT_CHILDREN && f.resultCheck.wrong === 0);
  return [
    {
      metric: `${CHILDREN} children live at once (10 mid × 19 leaf + 10 mid), time from Enter (median)`,
      value: round(m('spawnMs'), 0),
      unit: 'ms',
    },
    {
      metric: `pane frame time as pty key→frame, ${CHILDREN} live (median, all presses)`,
      value: round(median(all('frames')), 1),
      unit: 'ms',
      samples: runs.map((r) => round(r.p50, 1)),
    },
    {
      metric: `pane frame time as pty key→frame, ${CHILDREN} live (p95, all presses)`,
      value: round(p95, 1),
      unit: 'ms',
      target: `< ${TARGET_P95_FRAME_MS}`,
      pass: p95 < TARGET_P95_FRAME_MS,
      samples: runs.map((r) => round(r.p95, 1)),
    },
    {
      metric: 'floor: pty key→frame in the pane with nothing live (median / p95)',
      value: `${round(median(all('idle')), 1)} / ${round(percentile(all('idle'), 95), 1)}`,
      unit: 'ms',
    },
    {
      metric: `pane key→frame p95, ${CHILDREN} live / the same with nothing live (all presses, same runs)`,
      value: round(p95Ratio, 2),
      unit: '×',
      target: `<= ${TARGET_P95_FLOOR_RATIO}`,
      pass: p95Ratio <= TARGET_P95_FLOOR_RATIO,
      samples: runs.map((r) => round(r.p95 / r.idleP95, 2)),
    },
    {
      metric: `CPU per drawn frame with the pane open, ${CHILDREN} live: (arbor CPU − the same tree headless) / frames (median)`,
      value: round(drawMs, 2),
      unit: 'ms',
      target: `<= ${TARGET_DRAW_MS_PER_FRAME}`,
      pass: drawMs <= TARGET_DRAW_MS_PER_FRAME,
      samples: runs.map((r) => round(r.drawCpuPerFrame, 2)),
    },
    {
      metric: `floor: arbor CPU running the same ${CHILDREN} live headless (arbor -p, nothing drawn, median)`,
      value: round(m('headlessCpu') * 100, 1),
      unit: '% of a core',
      samples: runs.map((r) => round(r.headlessCpu * 100, 1)),
    },
    {
      metric: `frames written with the pane open that changed nothing on screen (${CPU_WINDOW_MS / 1000} s per run, all runs)`,
      value: unchanged,
      unit: `of ${runs.reduce((n, r) => n + r.paneFrames, 0)} frames`,
      target: '0',
      pass: unchanged === 0,
      samples: runs.map((r) => r.paneUnchanged),
    },
    {
      metric: `arbor CPU with the pane open, ${CHILDREN} live (median)`,
      value: round(m('paneCpu') * 100, 1),
      unit: '% of a core',
      samples: runs.map((r) => round(r.paneCpu * 100, 1)),
    },
    {
      metric: `frames drawn with the pane open, ${CHILDREN} live, no keys (median)`,
      value: round(m('paneFps'), 1),
      unit: 'frames/s',
      samples: runs.map((r) => round(r.paneFps, 1)),
    },
    {
      metric: 'diagnosis: arbor CPU per drawn frame with the pane open (CPU / frames, everything included)',
      value: round(m('paneCpuPerFrame'), 1),
      unit: 'ms',
      samples: runs.map((r) => round(r.paneCpuPerFrame, 1)),
    },
    {
      metric: `arbor CPU in the chat view, ${CHILDREN} live (median)`,
      value: round(m('chatCpu') * 100, 1),
      unit: '% of a core',
      samples: runs.map((r) => round(r.chatCpu * 100, 1)),
    },
    {
      metric: `/agents during a ${FANOUT_CHILDREN}-child spawn_subagent fan-out (each child ${FANOUT_CHILD_MS / 1000} s on its model): pty key→frame p95, every press while children were live (all runs)`,
      value: round(fanP95, 1),
      unit: 'ms',
      target: `< ${TARGET_FANOUT_P95_MS}`,
      pass: fanP95 < TARGET_FANOUT_P95_MS && fanResultsOk,
      samples: fanouts.map((f) => round(percentile(f.live, 95), 1)),
    },
    {
      metric: `/agents during the ${FANOUT_CHILDREN}-child fan-out: presses while live (of them before every child's request was in) / key→frame median`,
      value: `${fanLive.length} (${fanouts.reduce((n, f) => n + f.duringStarts, 0)}) / ${round(median(fanLive), 1)}`,
      unit: 'presses / ms',
    },
    {
      metric: `floor: the same pane after the fan-out, ${FANOUT_CHILDREN} finished rows, nothing live: key→frame median / p95`,
      value: `${round(median(fanFloor), 1)} / ${round(percentile(fanFloor, 95), 1)}`,
      unit: 'ms',
    },
    {
      metric: `/agents during the fan-out: every result returned to its own call (all runs)`,
      value: fanouts.map((f) => `${f.resultCheck.results - f.resultCheck.wrong}/${FANOUT_CHILDREN}`).join(', '),
      unit: 'results',
      target: 'all',
      pass: fanResultsOk,
    },
    {
      metric: 'kill all: y → every model stream of the tree aborted (server side, median)',
      value: round(kill, 0),
      unit: 'ms',
      target: `< ${TARGET_KILL_MS}`,
      pass: kill < TARGET_KILL_MS && killedAll,
      samples: runs.map((r) => round(r.killMs, 0)),
    },
    {
      metric: 'kill all: y → pane shows nothing live (median)',
      value: round(m('killShownMs'), 0),
      unit: 'ms',
      samples: runs.map((r) => round(r.killShownMs, 0)),
    },
    {
      metric: `arbor RSS per finished child ((after, arbor idle − before, after a full GC) / ${CHILDREN}, median)`,
      value: round(kb, 0),
      unit: 'KB',
      target: `< ${TARGET_KB_PER_CHILD}`,
      pass: kb < TARGET_KB_PER_CHILD,
      samples: runs.map((r) => round(r.kbPerChild, 0)),
    },
    {
      metric: `diagnosis: RSS per child at the moment the pane shows nothing live (before arbor's idle collection, median)`,
      value: round(m('kbPerChildAtKill'), 0),
      unit: 'KB',
      samples: runs.map((r) => round(r.kbPerChildAtKill, 0)),
    },
    {
      metric: `diagnosis: V8 heap kept per finished child after a forced full GC ((after − before) / ${CHILDREN}, median)`,
      value: round(m('heapKbPerChild'), 0),
      unit: 'KB',
      samples: runs.map((r) => round(r.heapKbPerChild, 0)),
    },
    {
      metric: 'diagnosis: V8 heap used before / after, after a full GC; RSS after that GC (median)',
      value: `${round(m('heapBefore') / 1048576, 1)} / ${round(m('heapAfter') / 1048576, 1)}; ${round(m('rssAfterGc') / 1048576, 1)}`,
      unit: 'MiB',
    },
    {
      metric: 'arbor RSS before spawning / after kill all (median)',
      value: `${round(m('rssBefore') / 1048576, 1)} / ${round(m('rssAfter') / 1048576, 1)}`,
      unit: 'MiB',
    },
  ];
}
