// Transcript viewer (issue 5): a session of 2,000 tool cards — half of them spawn_subagent /
// delegate cards with 8 KiB results, each bound to a finished child run with its own
// transcript — opened in the viewer with Ctrl+O. Measured in a fresh process per run, with
// the real chat App from dist/ rendered by Ink (production React, the App's frame rate) to a
// terminal-sized in-memory stdout, after the session has grown turn by turn (and been
// committed to scrollback as it went): time from Ctrl+O to the viewer's first frame; time
// from a key (↓, Enter) to the frame showing its effect; the process's peak resident memory.
// Targets: open < 150 ms, p95 key-to-frame < 30 ms, memory < 250 MB. One more process
// reports, without a target, the peak when a resumed session of the same size is printed to
// scrollback in one go.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { distUrl } from './lib/paths.js';
import { median, percentile, round } from './lib/stats.js';
// The stdin the UI tests render with, compiled by `npm run build`.
const { QuietStdin } = await import(distUrl('support/quietStdin.js'));

export const name = 'transcript-viewer';

const CARDS = 2000;
const RESULT_BYTES = 8 * 1024;
const RUNS = 3;
const DOWN_PRESSES = 100;
/** The live session grows by this many cards a turn, a turn every TURN_GAP_MS. */
const TURN_CARDS = 20;
const TURN_GAP_MS = 30;
const ENTER_PAIRS = 30;
/** Added to one frame interval of the App's frame-rate cap between a frame and the next
 * key: keys come as fast as the screen can show them, so the times measure the viewer's work
 * and not the cap (a key pressed sooner waits for the next frame slot by design). */
const KEY_SLACK_MS = 10;
const FRAME_TIMEOUT_MS = 5000;
const TARGET_OPEN_MS = 150;
const TARGET_P95_MS = 30;
const TARGET_RSS_MB = 250;

const CTRL_O = '\u000F';
const DOWN = '\u001B[B';
const ENTER = '\r';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ANSI = /\u001B\[[0-9;?]*[ -/]*[@-~]|\u001B\][^\u0007]*\u0007/g;

// ---- the measured process ----

class Screen extends EventEmitter {
  columns = 120;
  rows = 40;
  isTTY = true;
  write(data) {
    this.emit('frame', String(data).replace(ANSI, ''), performance.now());
    return true;
  }
}

/** A result of `bytes` bytes, in lines of ordinary prose. */
function filler(bytes, seed) {
  const line = `Finding ${seed}: the module reads its input, checks each field and reports what it found. `;
  let text = '';
  while (text.length < bytes) text += `${line}\n`;
  return text.slice(0, bytes);
}

const ROOT = 'root-bench';

function rootRun(at) {
  return {
    id: ROOT,
    shortId: 'root-ben',
    rootRunId: ROOT,
    depth: 0,
    alias: 'main',
    kind: 'root',
    status: 'completed',
    task: 'bench',
    sessionKey: 'session-bench',
    model: 'bench/model',
    createdAt: at,
    startedAt: at,
    endedAt: at + 1,
    iterations: 1,
    toolsCompleted: CARDS,
    recentTools: [],
    tokensIn: 0,
    tokensOut: 0,
    costUsd: 0,
    pausedMs: 0,
  };
}

/** Card `i` of the session: the tool item and, for a child card, its finished run and the
 * child's own transcript. */
function card(i, at, syncEnvelope) {
  const callId = `call-${i}`;
  const base = { id: `t${i}`, kind: 'tool', runId: ROOT, callId, status: 'ok', startedAt: at + i, endedAt: at + i + 1 };
  if (i % 2 === 1) {
    const args = { command: `grep -n TODO src/file${i}.ts` };
    return { item: { ...base, name: 'shell', args, rawArgs: JSON.stringify(args), result: `src/file${i}.ts:${i}: TODO tidy this up` } };
  }
  const delegate = i % 4 === 0;
  const args = delegate ? { agent: 'reviewer', prompt: `Review part ${i} of the change` } : { prompt: `Look into area ${i}` };
  const answer = filler(RESULT_BYTES, i);
  const item = {
    ...base,
    name: delegate ? 'delegate' : 'spawn_subagent',
    args,
    rawArgs: JSON.stringify(args),
    result: delegate ? syncEnvelope('reviewer', 'bench/model', true, answer) : answer,
  };
  const childId = `child-${String(i).padStart(6, '0')}`;
  const run = {
    id: childId,
    shortId: childId.slice(0, 8),
    parentRunId: ROOT,
    parentToolCallId: callId,
    rootRunId: ROOT,
    depth: 1,
    alias: delegate ? 'reviewer' : 'main',
    kind: delegate ? 'delegate' : 'subagent',
    status: 'completed',
    task: args.prompt,
    sessionKey: `subagent-${i}`,
    model: 'bench/model',
    createdAt: at + i,
    startedAt: at + i,
    endedAt: at + i + 1,
    iterations: 2,
    toolsCompleted: 1,
    recentTools: [],
    tokensIn: 900,
    tokensOut: 300,
    costUsd: 0,
    pausedMs: 0,
    result: answer,
  };
  const transcript = [
    { id: `cu${i}`, kind: 'user', text: args.prompt, at: at + i },
    {
      id: `ct${i}`,
      kind: 'tool',
      runId: childId,
      callId: `c-${i}`,
      name: 'read_file',
      args: { path: 'src/a.ts' },
      rawArgs: '{"path":"src/a.ts"}',
      status: 'ok',
      result: 'export const a = 1;',
      startedAt: at + i,
      endedAt: at + i,
    },
    { id: `ca${i}`, kind: 'assistant', runId: childId, text: answer.slice(0, 400), at: at + i },
  ];
  return { item, run, transcript };
}

/** Adds cards [from, to) to the store in one update (a turn's worth). */
function addCards(store, from, to, at, syncEnvelope) {
  const s = store.getState();
  const items = [];
  const newRuns = [];
  const runOrder = [...s.runOrder];
  let runTranscripts = s.runTranscripts;
  for (let i = from; i < to; i++) {
    const c = card(i, at, syncEnvelope);
    items.push(c.item);
    if (c.run) {
      newRuns.push([c.run.id, c.run]);
      runOrder.push(c.run.id);
      runTranscripts = runTranscripts.with(c.run.id, c.transcript);
    }
  }
  store.setState({ transcript: [...s.transcript, ...items], runs: s.runs.withMany(newRuns), runOrder, runTranscripts });
}

async function measure(mode) {
  const [{ createRuntimeStore }, { renderApp, MAX_FPS }, { registerTranscriptCards }, viewer, { syncEnvelope }] = await Promise.all([
    import(distUrl('runtime/store.js')),
    import(distUrl('ui/renderApp.js')),
    import(distUrl('ui/cards/register.js')),
    import(distUrl('ui/viewer/register.js')),
    import(distUrl('tools/delegate/strings.js')),
  ]);
  const store = createRuntimeStore('bench-session', {
    agentAlias: 'main',
    providerName: 'bench',
    providerLabel: 'bench/model',
    configWarnings: [],
  });
  const at = Date.now() - 3_600_000;
  store.setState((s) => ({ runs: s.runs.with(ROOT, rootRun(at)), runOrder: [ROOT] }));
  // A resumed session arrives whole before the chat starts; a live one grows turn by turn.
  if (mode === 'resumed') addCards(store, 0, CARDS, at, syncEnvelope);
  const runtime = {
    store,
    startTurn: async () => {},
    interrupt() {},
    answerApproval() {},
    clear() {},
    pause() {},
    resume() {},
    kill: () => ({ killed: false, descendants: 0 }),
    steer: () => 'unknown',
    setSpawnPaused() {},
    resolveRunaway: () => false,
    dispose: async () => {},
  };
  const screen = new Screen();
  const keyboard = new QuietStdin();
  let peakRss = process.memoryUsage().rss;
  const sample = () => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  };
  registerTranscriptCards(store);
  const app = renderApp(
    {
      runtime,
      sessions: { list: () => [], currentId: 'bench-session' },
      onExit() {},
      commands: viewer.viewerCommands(),
      keyBindings: viewer.viewerKeyBindings(),
    },
    { stdout: screen, stdin: keyboard, stderr: new Screen(), patchConsole: false },
  );

  let lastFrame = '';
  screen.on('frame', (text) => {
    if (text.trim()) lastFrame = text;
  });
  /** Resolves with the time of the first frame that satisfies `test`. */
  const frame = (test, what) =>
    new Promise((resolveFrame, reject) => {
      const timer = setTimeout(() => {
        screen.off('frame', on);
        reject(
          new Error(
            `no frame with ${what} within ${FRAME_TIMEOUT_MS} ms; the last one:\n${lastFrame.split('\n').slice(-screen.rows).join('\n')}`,
          ),
        );
      }, FRAME_TIMEOUT_MS);
      const on = (text, at) => {
        if (!test(text)) return;
        clearTimeout(timer);
        screen.off('frame', on);
        resolveFrame(at);
      };
      screen.on('frame', on);
    });
  const keyGapMs = Math.ceil(1000 / MAX_FPS) + KEY_SLACK_MS;
  const press = async (key, test, what) => {
    const waiting = frame(test, what);
    const t0 = performance.now();
    keyboard.write(key);
    const at = await waiting;
    sample();
    await sleep(keyGapMs);
    return at - t0;
  };

  const settle = async () => {
    let last = performance.now();
    const quiet = () => {
      last = performance.now();
    };
    screen.on('frame', quiet);
    while (performance.now() - last < 500) await sleep(100);
    screen.off('frame', quiet);
  };
  if (mode === 'live') {
    for (let from = 0; from < CARDS; from += TURN_CARDS) {
      addCards(store, from, Math.min(CARDS, from + TURN_CARDS), at, syncEnvelope);
      await sleep(TURN_GAP_MS);
      sample();
    }
  }
  // The chat prints the session to scrollback; measure once it is quiet.
  await settle();
  sample();
  if (mode === 'resumed') {
    app.unmount();
    return { peakRssMb: peakRss / (1024 * 1024) };
  }
  const count = store.getState().transcript.length;

  // The title shows "  <selected>/<count>"; the leading space keeps 2/… from matching 12/….
  const pos = (n) => ` ${n}/${count}`;
  const openMs = await press(CTRL_O, (t) => t.includes('Transcript') && t.includes(pos(count)), 'the viewer at the newest entry');
  // Key timings start from the top, so each ↓ has somewhere to go.
  await press('g', (t) => t.includes(pos(1)), 'the first entry selected');
  const down = [];
  for (let i = 1; i <= DOWN_PRESSES; i++) down.push(await press(DOWN, (t) => t.includes(pos(i + 1)), `entry ${i + 1} selected`));
  const enter = [];
  for (let i = 0; i < ENTER_PAIRS; i++) {
    enter.push(await press(ENTER, (t) => t.includes('Response') || t.includes('Arguments'), 'the expanded card'));
    enter.push(
      await press(
        ENTER,
        (t) => t.includes('Transcript') && !t.includes('Response') && !t.includes('Arguments'),
        'the card collapsed again',
      ),
    );
    const at = DOWN_PRESSES + 1 + i;
    await press(DOWN, (t) => t.includes(pos(at + 1)), `entry ${at + 1} selected`);
  }
  sample();
  app.unmount();
  return { openMs, down, enter, peakRssMb: peakRss / (1024 * 1024), entries: count, keyGapMs };
}

// ---- the runner's side ----

function runChild(mode) {
  return new Promise((resolveRun, reject) => {
    // English catalogs: the frames are recognized by their English titles.
    /** @type {NodeJS.ProcessEnv} */
    const env = { ...process.env, NODE_ENV: 'production', LC_ALL: 'en_US.UTF-8' };
    // Ink draws only the last frame when it believes it runs in CI.
    delete env.CI;
    delete env.CONTINUOUS_INTEGRATION;
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', mode], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop() ?? '';
      try {
        const parsed = JSON.parse(line);
        if (parsed.error) reject(new Error(parsed.error));
        else resolveRun(parsed);
      } catch {
        reject(new Error(`the measuring process exited with ${code} and no result\n${err || out}`));
      }
    });
  });
}

/** @param {{ log?: (line: string) => void }} [options] */
export async function run({ log } = { log: () => {} }) {
  const results = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await runChild('live');
    log(
      `run ${i + 1}: open ${round(r.openMs)} ms, ↓ p95 ${round(percentile(r.down, 95))} ms, Enter p95 ${round(percentile(r.enter, 95))} ms, peak ${round(r.peakRssMb, 0)} MB`,
    );
    results.push(r);
  }
  const resumed = await runChild('resumed');
  log(`resumed session printed at once: peak ${round(resumed.peakRssMb, 0)} MB`);
  const open = median(results.map((r) => r.openMs));
  const down = results.flatMap((r) => r.down);
  const enter = results.flatMap((r) => r.enter);
  const rss = Math.max(...results.map((r) => r.peakRssMb));
  const downP95 = percentile(down, 95);
  const enterP95 = percentile(enter, 95);
  return [
    { metric: `session entries (${CARDS} tool cards)`, value: results[0].entries, unit: 'entries' },
    {
      metric: 'viewer open: Ctrl+O to first frame (median)',
      value: round(open),
      unit: 'ms',
      target: `< ${TARGET_OPEN_MS}`,
      pass: open < TARGET_OPEN_MS,
    },
    { metric: 'keys sent this long after the previous frame', value: results[0].keyGapMs, unit: 'ms' },
    { metric: '↓ key-to-frame median', value: round(median(down)), unit: 'ms' },
    { metric: '↓ key-to-frame p95', value: round(downP95), unit: 'ms', target: `< ${TARGET_P95_MS}`, pass: downP95 < TARGET_P95_MS },
    { metric: 'Enter key-to-frame median', value: round(median(enter)), unit: 'ms' },
    { metric: 'Enter key-to-frame p95', value: round(enterP95), unit: 'ms', target: `< ${TARGET_P95_MS}`, pass: enterP95 < TARGET_P95_MS },
    {
      metric: 'process memory, peak RSS (session built over turns, viewer used)',
      value: round(rss, 1),
      unit: 'MB',
      target: `< ${TARGET_RSS_MB}`,
      pass: rss < TARGET_RSS_MB,
    },
    // Informational: --resume prints all 2,000 restored cards to scrollback in one frame.
    { metric: 'peak RSS when --resume prints the 2,000 cards at once (before the viewer)', value: round(resumed.peakRssMb, 1), unit: 'MB' },
  ];
}

if (process.argv[2] === '--child' && resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  measure(process.argv[3] === 'resumed' ? 'resumed' : 'live')
    .then((r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      process.exit(0);
    })
    .catch((err) => {
      process.stdout.write(`${JSON.stringify({ error: err && err.stack ? err.stack : String(err) })}\n`);
      process.exit(1);
    });
}
