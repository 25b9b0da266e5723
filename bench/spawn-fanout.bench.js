// Spawn fan-out (issue 3): one root turn whose first model reply is 100 spawn_subagent
// calls, run concurrently (parallel_tools, concurrency limits raised to 100), against a
// model that answers each child after 50 ms. The runtime runs in its own process and the
// model server in another, so CPU is charged to the runtime alone.
//
// Wall time of the fan-out phase = from the end of the root's tool-call reply to the
// arrival of the root's next request (every tool result in it), both seen by the server.
// The ideal is the slowest child's model time (arrival → end of its reply, per request,
// server side). Targets: wall ≤ 1.3 × ideal, runtime CPU < 2 ms per child.
//
// Latency (issue 24), at 100 and at 1,000 children: the first child request after the
// root's tool-call reply has arrived (the server's last byte of it: on loopback the bytes
// are at the client then; children start as the reply streams, so this can be negative),
// and the root's next request after the last child's answer. Beside each, the AI SDK's own
// floor on the same exchange in a process of its own (workers/sdk-baseline.js): doStream
// having the first call whole / all calls, and doStream sending the same 2n+1-message
// resume request. Kill all (X in /agents) at 1,000 children in flight: until every child
// stream has closed at the server.
import { join } from 'node:path';
import { ROOT_PROMPT, childAnswer, childPrompt } from './lib/fanoutScript.js';
import { benchDir } from './lib/paths.js';
import { median, round } from './lib/stats.js';
import { startWorker } from './lib/worker.js';

export const name = 'spawn-fanout';

const CHILDREN = 100;
const LARGE = 1000;
const LARGE_REPEATS = 3;
const TARGET_SCALE_RATIO = 1.2;
const TARGET_LATENCY_MS = 20;
const CHILD_DELAY_MS = 50;
const REPEATS = 5;
const TARGET_WALL_RATIO = 1.3;
const TARGET_CPU_PER_CHILD_MS = 2;
const KILL_REPEATS = 3;
const TARGET_KILL_MS = 250;
/** A child that never answers: kill-all finds every stream open. */
const HANG_MS = 600_000;

function analyse(turn, stats, children = CHILDREN) {
  const first = stats.rootCalls.find((c) => !c.withResults);
  const second = stats.rootCalls.find((c) => c.withResults);
  if (!first || !second) {
    throw new Error(
      `the root did not come back with tool results (root status ${turn.rootStatus}: ${turn.rootError ?? 'no error'}; ` +
        `${stats.childReqs.length} child requests seen)`,
    );
  }
  const childModelMs = stats.childReqs.map((c) => c.endAt - c.arriveAt);
  const idealMs = Math.max(...childModelMs);
  const wallMs = second.arriveAt - first.endAt;
  const cpuMs = (turn.cpuUserUs + turn.cpuSystemUs) / 1000;
  const arrivals = stats.childReqs.map((c) => c.arriveAt);
  const complete =
    turn.rootStatus === 'completed' &&
    turn.children === children &&
    (turn.statusCounts.completed ?? 0) === children &&
    stats.childReqs.length === children &&
    stats.resultCheck?.results === children &&
    stats.resultCheck?.wrong === 0;
  return {
    wallMs,
    idealMs,
    ratio: wallMs / idealMs,
    cpuPerChildMs: cpuMs / children,
    heapPerChildKb: turn.heapGrowthBytes / 1024 / children,
    spreadPerChildMs: (Math.max(...arrivals) - Math.min(...arrivals)) / children,
    // From the root's tool calls reaching the runtime whole to the first child request.
    // From the root's tool-call reply having arrived (the server's last byte of it).
    firstChildLatencyMs: Math.min(...arrivals) - first.endAt,
    // The first call's card in the runtime, from the same moment.
    firstCardMs: turn.toolCallsAt - first.endAt,
    cpuMs,
    turnWallMs: turn.endAt - turn.startAt,
    lastChildAfterMs: Math.max(...arrivals) - first.endAt,
    collectMs: second.arriveAt - Math.max(...stats.childReqs.map((c) => c.endAt)),
    // The resume delay in two: the last answer's end → the root's next step begun (the
    // answer read, the child ended, every result collected and recorded), → its request
    // arrived (the history converted, the request built and sent: the SDK's resume floor).
    resumeCollectMs: turn.rootStep2At - Math.max(...stats.childReqs.map((c) => c.endAt)),
    resumeSendMs: second.arriveAt - turn.rootStep2At,
    // The resume's window on the server's clock, for the runtime's profile (mark below).
    resumeWindow: [Math.max(...stats.childReqs.map((c) => c.endAt)), second.arriveAt],
    peakInFlight: stats.peakInFlight,
    ...resumeDiagnosis(turn, stats, second.arriveAt),
    complete,
    detail: complete
      ? undefined
      : `root ${turn.rootStatus}, children ${JSON.stringify(turn.statusCounts)}, requests ${stats.childReqs.length}, results ${JSON.stringify(stats.resultCheck)}`,
  };
}

/** What the resume window held beyond arbor's own steps: the runtime's garbage collection
 * inside it (ms of GC pause between the last answer's end and the resume's arrival), how
 * many children the runtime had not yet ended when the last answer ended (their answers
 * still to read: the backlog it works through first), and how many answers ended in the
 * last CHILD_DELAY_MS before it (the last groups of starts, answering together). */
function resumeDiagnosis(turn, stats, resumeArriveAt) {
  const lastAnswerEnd = Math.max(...stats.childReqs.map((c) => c.endAt));
  const gcWithin = (from, to) =>
    (turn.gcs ?? []).reduce((sum, g) => sum + Math.max(0, Math.min(g.at + g.ms, to) - Math.max(g.at, from)), 0);
  const ended = Object.values(turn.childEndedAt ?? {});
  return {
    resumeGcMs: gcWithin(lastAnswerEnd, resumeArriveAt),
    // The part of it after the root's next step began (the request built and sent).
    sendGcMs: gcWithin(turn.rootStep2At, resumeArriveAt),
    // endedAt is Date.now(): whole milliseconds, at or below the moment.
    behindAtResume: ended.filter((at) => at > Math.floor(lastAnswerEnd)).length,
    lastAnswersBurst: stats.childReqs.filter((c) => c.endAt >= lastAnswerEnd - CHILD_DELAY_MS).length,
    gcCount: (turn.gcs ?? []).length,
  };
}

const signed = (ms) => `${ms >= 0 ? '+' : ''}${ms.toFixed(1)}`;

/** The SDK alone on the root's two exchanges of an n-child fan-out (see the header). */
async function sdkFloors(server, sdk, children) {
  const open = () => server.request({ cmd: 'open', scenario: 'fanout', options: { children, childDelayMs: CHILD_DELAY_MS } });
  const stats = async () => {
    const { stats: st } = await server.request({ cmd: 'stats' });
    await server.request({ cmd: 'close' });
    return st;
  };
  const { url } = await open();
  const reply = await sdk.request({ cmd: 'replyFloor', url, rootPrompt: ROOT_PROMPT });
  const replyStats = await stats();
  if (reply.calls !== children) throw new Error(`SDK floor: ${reply.calls} of ${children} tool calls parsed`);
  const lastByte = replyStats.rootCalls[0].endAt;
  const answers = Array.from({ length: children }, (_, i) => ({ prompt: childPrompt(i), text: childAnswer(i) }));
  const resumed = async (lastChildPrompt) => {
    const { url: at } = await open();
    const resume = await sdk.request({ cmd: 'resumeFloor', url: at, rootPrompt: ROOT_PROMPT, answers, lastChildPrompt });
    const st = await stats();
    const second = st.rootCalls.find((c) => c.withResults);
    if (!second || st.resultCheck?.wrong !== 0)
      throw new Error(`SDK floor: resume request not as arbor's (${JSON.stringify(st.resultCheck)})`);
    return { resume, second, answerEndAt: st.childReqs.at(-1)?.endAt };
  };
  const send = await resumed(undefined);
  // Arbor's row on the same clock: the server's end of the last answer → the resume's arrival.
  const afterAnswer = await resumed(childPrompt(children - 1));
  return {
    firstWholeMs: reply.firstWholeAt - lastByte,
    allCallsMs: reply.finishAt - lastByte,
    resumeSendMs: send.second.arriveAt - send.resume.startAt,
    answerToResumeMs: afterAnswer.second.arriveAt - afterAnswer.answerEndAt,
  };
}

/** Kill all with every one of `children` child streams open: ask → every stream closed at
 * the server, and → the root's turn ended (every child unwound, every run ended). */
async function killAllOnce(server, runtime, children) {
  const { url } = await server.request({ cmd: 'open', scenario: 'fanout', options: { children, childDelayMs: HANG_MS } });
  const inFlight = server.nextEvent((m) => m.event === 'fanoutInFlight', 300_000);
  const closed = server.nextEvent((m) => m.event === 'fanoutEnded', 300_000);
  const turn = runtime.request({ cmd: 'turn', url, children });
  await inFlight;
  const k = await runtime.request({ cmd: 'killAll' });
  const { at: closedAt } = await closed;
  const t = await turn;
  const { stats } = await server.request({ cmd: 'stats' });
  await server.request({ cmd: 'close' });
  const allClosed = stats.childReqs.length === children && stats.childReqs.every((c) => c.outcome === 'client_closed');
  const kids = t.statusCounts;
  return {
    closedMs: closedAt - k.killAt,
    // Each child's socket is destroyed (its fd closed) inside the kill call.
    returnedMs: k.returnedAt - k.killAt,
    endedMs: k.endedAt - k.killAt,
    ok: allClosed && k.open === 0 && (kids.killed ?? 0) === children && t.children === children,
    detail: `killed ${k.killed}, ${k.open} runs not ended, children ${JSON.stringify(kids)}, streams ${stats.childReqs.map((c) => c.outcome).filter((o) => o !== 'client_closed').length} not closed by the client`,
  };
}

/** The same with the bare SDK: n doStream requests held open, then each one's controller
 * aborted in one loop; ask → every stream closed at the server. */
async function killFloorOnce(server, sdk, children) {
  await server.request({ cmd: 'open', scenario: 'fanout', options: { children, childDelayMs: HANG_MS } }).then(async ({ url }) => {
    const inFlight = server.nextEvent((m) => m.event === 'fanoutInFlight', 300_000);
    await sdk.request({ cmd: 'holdStreams', url, prompts: Array.from({ length: children }, (_, i) => childPrompt(i)) });
    await inFlight;
  });
  const closed = server.nextEvent((m) => m.event === 'fanoutEnded', 300_000);
  const k = await sdk.request({ cmd: 'abortAll' });
  const { at: closedAt } = await closed;
  await server.request({ cmd: 'close' });
  return { closedMs: closedAt - k.killAt, returnedMs: k.returnedAt - k.killAt };
}

/** @param {{ log?: (line: string) => void }} [options] */
export async function run({ log } = { log: () => {} }) {
  const server = await startWorker(join(benchDir, 'workers', 'model-server.js'));
  const runtime = await startWorker(join(benchDir, 'workers', 'fanout-runtime.js'), { execArgv: ['--expose-gc'] });
  const sdk = await startWorker(join(benchDir, 'workers', 'sdk-baseline.js'), { execArgv: ['--expose-gc'] });
  // The large fan-out has a runtime process of its own, so one size's garbage is never
  // counted (or freed) in the other's heap figures; it is warmed up by one small turn.
  const largeRuntime = await startWorker(join(benchDir, 'workers', 'fanout-runtime.js'), { execArgv: ['--expose-gc'] });
  const childPrompts = Array.from({ length: CHILDREN }, (_, i) => childPrompt(i));
  const samples = [];
  const large = [];
  const baselines = { streamText: [], fetch: [], http: [] };
  const sdkOverheads = [];
  const httpWallRatios = [];
  const floors = [];
  const largeFloors = [];
  const kills = [];
  const killFloors = [];
  let cold;
  const turnOf = async (children, worker = runtime) => {
    // A fresh server (new port) every time: connections are set up in every repeat.
    const { url } = await server.request({ cmd: 'open', scenario: 'fanout', options: { children, childDelayMs: CHILD_DELAY_MS } });
    const turn = await worker.request({ cmd: 'turn', url, children });
    const { stats } = await server.request({ cmd: 'stats' });
    await server.request({ cmd: 'close' });
    const a = analyse(turn, stats, children);
    // With ARBOR_BENCH_PROFILE_DIR, the runtime's profile gets this turn's resume window.
    const [fromMs, toMs] = a.resumeWindow;
    const k = ++marks;
    await worker.request({ cmd: 'mark', phase: `resume-${children}-${k}`, fromMs, toMs });
    // Its two parts: until the root's next step began (`collect-`), and from then (`send-`).
    await worker.request({ cmd: 'mark', phase: `collect-${children}-${k}`, fromMs, toMs: toMs - a.resumeSendMs });
    await worker.request({ cmd: 'mark', phase: `send-${children}-${k}`, fromMs: toMs - a.resumeSendMs, toMs });
    return a;
  };
  let marks = 0;
  const describe = (a) =>
    `fan-out ${a.wallMs.toFixed(1)} ms vs ideal ${a.idealMs.toFixed(1)} ms (×${a.ratio.toFixed(2)}), CPU ${a.cpuPerChildMs.toFixed(2)} ms/child, ` +
    `first child ${signed(a.firstChildLatencyMs)} ms after the reply's last byte (first card ${signed(a.firstCardMs)} ms), ` +
    `spread ${a.spreadPerChildMs.toFixed(2)} ms/child, root resumes +${a.collectMs.toFixed(1)} ms ` +
    `(results in +${a.resumeCollectMs.toFixed(1)}, request built and sent +${a.resumeSendMs.toFixed(1)}; ${a.behindAtResume} children still to end, ` +
    `${a.lastAnswersBurst} answers in its last ${CHILD_DELAY_MS} ms, GC ${a.resumeGcMs.toFixed(1)} ms in it (${a.sendGcMs.toFixed(1)} while sending), ` +
    `${a.gcCount} GCs in the turn), peak ${a.peakInFlight} in flight` +
    (a.complete ? '' : `, INCOMPLETE: ${a.detail}`);
  try {
    // The first turn pays for compiling the code paths; it is reported on its own.
    for (let i = 0; i < REPEATS + 1; i++) {
      const a = await turnOf(CHILDREN);
      log(`${i === 0 ? 'cold' : `repeat ${i}/${REPEATS}`}: ${describe(a)}`);
      if (i === 0) cold = a;
      else samples.push(a);
      // The same child requests without the runtime, interleaved with the repeats so both see
      // the same machine load.
      for (const mode of Object.keys(baselines)) {
        const { url: baseUrl } = await server.request({
          cmd: 'open',
          scenario: 'fanout',
          options: { children: CHILDREN, childDelayMs: CHILD_DELAY_MS },
        });
        const b = await sdk.request({ cmd: 'measure', url: baseUrl, prompts: childPrompts, mode });
        const { stats: baseStats } = await server.request({ cmd: 'stats' });
        await server.request({ cmd: 'close' });
        const slowest = Math.max(...baseStats.childReqs.map((c) => c.endAt - c.arriveAt));
        if (i > 0) baselines[mode].push((b.cpuUserUs + b.cpuSystemUs) / 1000 / CHILDREN);
        if (i > 0 && mode === 'streamText') sdkOverheads.push(b.wallMs - slowest);
        if (i > 0 && mode === 'http') httpWallRatios.push(b.wallMs / slowest);
      }
      if (i > 0) {
        const f = await sdkFloors(server, sdk, CHILDREN);
        log(
          `  SDK floor at ${CHILDREN}: resume request sent in ${f.resumeSendMs.toFixed(1)} ms, ${f.answerToResumeMs.toFixed(1)} ms after an answer's end`,
        );
        floors.push(f);
      }
      // The large fan-out, interleaved with the small one so both see the same load.
      if (i === 0) await turnOf(CHILDREN, largeRuntime);
      if (i > 0 && i <= LARGE_REPEATS) {
        const l = await turnOf(LARGE, largeRuntime);
        log(`${LARGE} children, repeat ${i}/${LARGE_REPEATS}: ${describe(l)}`);
        large.push(l);
        const f = await sdkFloors(server, sdk, LARGE);
        log(
          `  SDK floor at ${LARGE}: first call whole ${signed(f.firstWholeMs)} ms, all calls ${signed(f.allCallsMs)} ms after the reply's last byte; resume request sent in ${f.resumeSendMs.toFixed(1)} ms, ${f.answerToResumeMs.toFixed(1)} ms after an answer's end`,
        );
        largeFloors.push(f);
      }
    }
    for (let i = 0; i < KILL_REPEATS; i++) {
      const k = await killAllOnce(server, largeRuntime, LARGE);
      log(
        `kill all, ${LARGE} children in flight, repeat ${i + 1}/${KILL_REPEATS}: kill call returned +${k.returnedMs.toFixed(1)} ms, every stream closed at the server +${k.closedMs.toFixed(1)} ms, the turn ended +${k.endedMs.toFixed(1)} ms${k.ok ? '' : `, INCOMPLETE: ${k.detail}`}`,
      );
      kills.push(k);
      const f = await killFloorOnce(server, sdk, LARGE);
      log(
        `  SDK floor: ${LARGE} doStream requests aborted in one loop: loop +${f.returnedMs.toFixed(1)} ms, every stream closed at the server +${f.closedMs.toFixed(1)} ms`,
      );
      killFloors.push(f);
    }
  } finally {
    await sdk.stop();
    await largeRuntime.stop();
    await runtime.stop();
    await server.stop();
  }

  const m = (key) => median(samples.map((s) => s[key]));
  const ml = (key) => median(large.map((s) => s[key]));
  const ratio = m('ratio');
  const cpuPerChild = m('cpuPerChildMs');
  const allComplete = samples.every((s) => s.complete) && cold.complete;
  const largeComplete = large.every((s) => s.complete);
  const overhead = m('wallMs') - m('idealMs');
  const sdkOverhead = median(sdkOverheads);
  const scaleRow = (metric, key, unit) => {
    const small = m(key);
    const big = ml(key);
    const r = big / small;
    return {
      metric: `${metric}: ${LARGE} vs ${CHILDREN} children (${round(big, 2)} vs ${round(small, 2)} ${unit})`,
      value: round(r, 2),
      unit: '×',
      target: `≤ ${TARGET_SCALE_RATIO}`,
      pass: r <= TARGET_SCALE_RATIO,
      samples: large.map((s) => round(s[key], 2)),
    };
  };
  const latencyRow = (metric, value, samplesOf) => ({
    metric,
    value: round(value, 1),
    unit: 'ms',
    target: `≤ ${TARGET_LATENCY_MS}`,
    pass: value <= TARGET_LATENCY_MS,
    samples: samplesOf.map((v) => round(v, 1)),
  });
  const floorRow = (metric, list, key) => ({
    metric,
    value: round(median(list.map((f) => f[key])), 1),
    unit: 'ms',
    samples: list.map((f) => round(f[key], 1)),
  });
  // The resume request itself grows with n (1 + 2n messages to convert, serialize and send):
  // the floor under the resume delay is the bare SDK reading a child's answer and sending
  // the same request the moment it has it, timed by the server as arbor's is (last answer's
  // end → the request's arrival), in this run. What arbor adds above it, at each size, and
  // how that grows.
  function resumeFloorRows() {
    const small = m('collectMs');
    const big = ml('collectMs');
    const floorSmall = median(floors.map((f) => f.answerToResumeMs));
    const floorBig = median(largeFloors.map((f) => f.answerToResumeMs));
    return [
      floorRow(
        `floor: bare AI SDK doStream reads a child's answer and sends the ${2 * CHILDREN + 1}-message resume: answer's end → request's arrival (median)`,
        floors,
        'answerToResumeMs',
      ),
      floorRow(`floor: the same with the ${2 * LARGE + 1}-message resume (median)`, largeFloors, 'answerToResumeMs'),
      {
        metric: `floor: answer → resume, ${LARGE} vs ${CHILDREN} results (${round(floorBig, 1)} vs ${round(floorSmall, 1)} ms)`,
        value: round(floorBig / floorSmall, 2),
        unit: '×',
      },
      {
        // Both floors come from other moments than the turns they sit under: at or below
        // its floor, a delay has nothing above it to compare (the machine's noise shows).
        metric: `root's resume delay above that floor, ${LARGE} vs ${CHILDREN} children (${round(big - floorBig, 1)} vs ${round(small - floorSmall, 1)} ms)`,
        value:
          big > floorBig && small > floorSmall ? round((big - floorBig) / (small - floorSmall), 2) : 'n/a (a delay at or below its floor)',
        unit: '×',
      },
      { metric: `root's resume delay / its floor, ${CHILDREN} children`, value: round(small / floorSmall, 2), unit: '×' },
      { metric: `root's resume delay / its floor, ${LARGE} children`, value: round(big / floorBig, 2), unit: '×' },
    ];
  }
  const killsOk = kills.every((k) => k.ok);
  const killMs = median(kills.map((k) => k.closedMs));
  return [
    {
      metric: `${CHILDREN} children completed, each result returned to its own call (all repeats)`,
      value: allComplete,
      unit: '',
      target: 'yes',
      pass: allComplete,
      ...(allComplete ? {} : { detail: [cold, ...samples].filter((s) => !s.complete).map((s) => s.detail) }),
    },
    {
      metric: `fan-out wall time (median of ${REPEATS})`,
      value: round(m('wallMs'), 1),
      unit: 'ms',
      samples: samples.map((s) => round(s.wallMs, 1)),
    },
    {
      metric: 'ideal: slowest child model time (median)',
      value: round(m('idealMs'), 1),
      unit: 'ms',
      samples: samples.map((s) => round(s.idealMs, 1)),
    },
    {
      metric: 'fan-out wall / ideal (median)',
      value: round(ratio, 2),
      unit: '×',
      target: `≤ ${TARGET_WALL_RATIO}`,
      pass: ratio <= TARGET_WALL_RATIO,
      samples: samples.map((s) => round(s.ratio, 2)),
    },
    {
      metric: `wall overhead (wall − ideal) / bare streamText's over the same ${CHILDREN} requests (${round(overhead, 1)} vs ${round(sdkOverhead, 1)} ms)`,
      value: round(overhead / sdkOverhead, 2),
      unit: '×',
      target: '≤ 1.0',
      pass: overhead / sdkOverhead <= 1.0,
    },
    {
      metric: 'runtime CPU per child (median)',
      value: round(cpuPerChild, 2),
      unit: 'ms',
      target: `< ${TARGET_CPU_PER_CHILD_MS}`,
      pass: cpuPerChild < TARGET_CPU_PER_CHILD_MS,
      samples: samples.map((s) => round(s.cpuPerChildMs, 2)),
    },
    {
      metric: 'baseline: bare AI SDK streamText CPU per request, same requests (median)',
      value: round(median(baselines.streamText), 2),
      unit: 'ms',
      samples: baselines.streamText.map((v) => round(v, 2)),
    },
    {
      metric: 'baseline: bare fetch + SSE body CPU per request (median)',
      value: round(median(baselines.fetch), 2),
      unit: 'ms',
      samples: baselines.fetch.map((v) => round(v, 2)),
    },
    {
      metric: 'floor: bare node:http exchange CPU per request, no SDK (median)',
      value: round(median(baselines.http), 2),
      unit: 'ms',
      samples: baselines.http.map((v) => round(v, 2)),
    },
    {
      metric: 'floor: the same 100 requests on bare node:http, wall / slowest model time (median)',
      value: round(median(httpWallRatios), 2),
      unit: '×',
      samples: httpWallRatios.map((v) => round(v, 2)),
    },
    {
      metric: 'runtime CPU per child / bare streamText per request',
      value: round(cpuPerChild / median(baselines.streamText), 2),
      unit: '×',
    },
    latencyRow(
      `${CHILDREN} children: first child request after the root's tool-call reply has arrived (its last byte; median)`,
      m('firstChildLatencyMs'),
      samples.map((s) => s.firstChildLatencyMs),
    ),
    floorRow(
      `floor: bare AI SDK doStream has the first of ${CHILDREN} calls whole, after the reply's last byte (median)`,
      floors,
      'firstWholeMs',
    ),
    {
      metric: `${CHILDREN} children: the first call's card in the runtime after the reply's last byte (median)`,
      value: round(m('firstCardMs'), 1),
      unit: 'ms',
      samples: samples.map((s) => round(s.firstCardMs, 1)),
    },
    latencyRow(
      `${CHILDREN} children: last child answer → root's next request (median)`,
      m('collectMs'),
      samples.map((s) => s.collectMs),
    ),
    floorRow(`floor: bare AI SDK doStream sends the same ${2 * CHILDREN + 1}-message resume request (median)`, floors, 'resumeSendMs'),
    { metric: "last child request arrives after the reply's last byte (median)", value: round(m('lastChildAfterMs'), 1), unit: 'ms' },
    { metric: 'peak child requests in flight (median)', value: m('peakInFlight'), unit: '' },
    {
      metric: 'cold first turn: wall / ideal, CPU per child',
      value: `${round(cold.ratio, 2)} / ${round(cold.cpuPerChildMs, 2)}`,
      unit: '× / ms',
    },
    {
      metric: `${LARGE} children completed, each result returned to its own call (all repeats)`,
      value: largeComplete,
      unit: '',
      target: 'yes',
      pass: largeComplete,
      ...(largeComplete ? {} : { detail: large.filter((s) => !s.complete).map((s) => s.detail) }),
    },
    scaleRow('runtime CPU per child', 'cpuPerChildMs', 'ms'),
    scaleRow('retained heap per child', 'heapPerChildKb', 'KB'),
    scaleRow('start spread per child', 'spreadPerChildMs', 'ms'),
    scaleRow("root's resume delay after the last answer", 'collectMs', 'ms'),
    ...resumeFloorRows(),
    ...[CHILDREN, LARGE].map((n) => {
      const list = n === CHILDREN ? samples : large;
      const part = (key) => round(median(list.map((s) => s[key])), 1);
      return {
        metric: `${n} children: the resume in two — last answer's end → root's next step begun / → its request arrived (medians)`,
        value: `${part('resumeCollectMs')} / ${part('resumeSendMs')}`,
        unit: 'ms',
      };
    }),
    ...[CHILDREN, LARGE].map((n) => {
      const list = n === CHILDREN ? samples : large;
      const med = (key) => round(median(list.map((s) => s[key])), 1);
      return {
        metric: `${n} children, at the last answer's end: children the runtime had still to end / answers in the last ${CHILD_DELAY_MS} ms / GC pause in the resume window / of it while sending (medians)`,
        value: `${med('behindAtResume')} / ${med('lastAnswersBurst')} / ${med('resumeGcMs')} / ${med('sendGcMs')}`,
        unit: '# / # / ms / ms',
        samples: list.map((s) => `${s.behindAtResume}/${s.lastAnswersBurst}/${round(s.resumeGcMs, 1)}/${round(s.sendGcMs, 1)}`),
      };
    }),
    latencyRow(
      `${LARGE} children: first child request after the root's tool-call reply has arrived (its last byte; median)`,
      ml('firstChildLatencyMs'),
      large.map((s) => s.firstChildLatencyMs),
    ),
    floorRow(
      `floor: bare AI SDK doStream has the first of ${LARGE} calls whole, after the reply's last byte (median)`,
      largeFloors,
      'firstWholeMs',
    ),
    floorRow(
      `floor: bare AI SDK doStream has all ${LARGE} calls (its parse of the reply), after the reply's last byte (median)`,
      largeFloors,
      'allCallsMs',
    ),
    {
      metric: `${LARGE} children: the first call's card in the runtime after the reply's last byte (median)`,
      value: round(ml('firstCardMs'), 1),
      unit: 'ms',
      samples: large.map((s) => round(s.firstCardMs, 1)),
    },
    latencyRow(
      `${LARGE} children: last child answer → root's next request (median)`,
      ml('collectMs'),
      large.map((s) => s.collectMs),
    ),
    floorRow(`floor: bare AI SDK doStream sends the same ${2 * LARGE + 1}-message resume request (median)`, largeFloors, 'resumeSendMs'),
    {
      metric: `kill all with ${LARGE} children in flight: ask → every child stream closed at the server (median of ${KILL_REPEATS})`,
      value: round(killMs, 1),
      unit: 'ms',
      target: `< ${TARGET_KILL_MS}`,
      pass: killsOk && killMs < TARGET_KILL_MS,
      samples: kills.map((k) => round(k.closedMs, 1)),
      ...(killsOk ? {} : { detail: kills.filter((k) => !k.ok).map((k) => k.detail) }),
    },
    floorRow(
      `floor: ${LARGE} bare AI SDK doStream requests aborted in one loop, → every stream closed at the server (median)`,
      killFloors,
      'closedMs',
    ),
    {
      metric: `kill all with ${LARGE} children in flight: the kill call itself (every child's socket destroyed in it; median)`,
      value: round(median(kills.map((k) => k.returnedMs)), 1),
      unit: 'ms',
      samples: kills.map((k) => round(k.returnedMs, 1)),
    },
    {
      metric: `kill all with ${LARGE} children in flight: ask → the turn ended, every child unwound (median)`,
      value: round(median(kills.map((k) => k.endedMs)), 1),
      unit: 'ms',
      samples: kills.map((k) => round(k.endedMs, 1)),
    },
  ];
}
