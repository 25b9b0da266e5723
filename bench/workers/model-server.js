// The fake model for the benchmarks, in its own process so its CPU is never charged to
// arbor. The parent drives it over IPC: {id, cmd: 'open' | 'stats' | 'close', ...}; every
// command gets {id, ok, ...} back. Times are absolute wall-clock milliseconds (lib/clock.js),
// so they compare with the other processes' clocks.
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { CHILD_PROMPT_RE, ROOT_PROMPT, checkResults, childAnswer, spawnChildren } from '../lib/fanoutScript.js';
import { firstUserText, lastUserText, toolResults } from '../lib/messages.js';
import { distUrl } from '../lib/paths.js';
import { openAgentsTree } from './agentsTreeScenario.js';
import { openFanoutPane } from './fanoutPaneScenario.js';
import { openHugeReply } from './hugeReplyScenario.js';
import { listenOnLoopback } from '../lib/loopbackServer.js';
import { now } from '../lib/clock.js';

// Comparable with the other processes' times (lib/clock.js).
const { startLoopbackModel } = await import(distUrl('support/loopbackModel.js'));

let current; // { close(): Promise<void>, stats(): object }

// ---------------------------------------------------------------------------------------
// paced-text: every request gets `tokens` text deltas (one per SSE event, OpenAI
// chat-completions format) at `ratePerSec`. Token i is due at start + (i+1)/rate s and each
// timer tick sends every token that is due. The loopback model waits a fixed delay before
// each chunk instead, which drifts well below 1,000 chunks/s on a busy machine (a 1 ms
// timer fires after 1.1–1.6 ms), so it cannot hold the rate this benchmark asks for.

function contentChunk(id, model, delta, finish = null) {
  return {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

async function openPacedText({ replies, ratePerSec }) {
  const streams = [];
  const server = createServer((req, res) => {
    const parts = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', () => {
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      } catch {
        /* answered with a 400 below */
      }
      if (!req.url?.split('?')[0].endsWith('/chat/completions') || body.stream !== true) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: 'the benchmark server only streams chat completions', type: 'invalid_request_error' } }),
        );
        return;
      }
      // The user's message picks the reply: { match, words } with the first match winning.
      const text = lastUserText(body);
      const reply = replies.find((r) => text.includes(r.match)) ?? replies[replies.length - 1];
      streamWords(res, body.model ?? 'fake-model', reply.words, ratePerSec, text);
    });
  });

  function streamWords(res, model, words, rate, prompt) {
    const record = { prompt, tokens: words.length, requestAt: now(), firstAt: 0, lastAt: 0, sent: 0, maxBurst: 0, closedEarly: false };
    streams.push(record);
    const id = `chatcmpl-bench-${streams.length}`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    const write = (data) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    write(contentChunk(id, model, { role: 'assistant', content: '' }));
    let closed = false;
    res.on('close', () => {
      closed = true;
      if (record.sent < words.length) record.closedEarly = true;
    });
    const start = performance.now();
    const tick = () => {
      if (closed) return;
      const due = Math.min(words.length, Math.floor(((performance.now() - start) * rate) / 1000));
      if (due > record.sent) {
        record.maxBurst = Math.max(record.maxBurst, due - record.sent);
        if (record.sent === 0) record.firstAt = now();
        while (record.sent < due) write(contentChunk(id, model, { content: words[record.sent++] }));
        record.lastAt = now();
      }
      if (record.sent < words.length) {
        setTimeout(tick, 1);
        return;
      }
      const completion = Math.max(1, Math.ceil(words.join('').length / 4));
      write(contentChunk(id, model, {}, 'stop'));
      write({
        id,
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [],
        usage: { prompt_tokens: 10, completion_tokens: completion, total_tokens: 10 + completion },
      });
      write('[DONE]');
      res.end();
      process.send?.({ event: 'streamEnd', stream: record });
    };
    setTimeout(tick, 1);
  }

  const { url, close } = await listenOnLoopback(server);
  return { url, stats: () => ({ streams }), close };
}

// ---------------------------------------------------------------------------------------
// fanout: the root's first request gets `children` spawn_subagent calls; each child answers
// after `childDelayMs`; the root's second request (with every tool result) gets a final
// text. Times are taken per request on this side: when it arrived, when its answer ended.

async function openFanout({ children, childDelayMs }) {
  const rootCalls = [];
  const childReqs = [];
  let inFlight = 0;
  let peakInFlight = 0;
  let resultCheck;
  let model;
  let childrenEnded = 0;
  const track = (req, rec, isChild) => {
    const entry = model.requests[req.index];
    void entry.ended.then((outcome) => {
      rec.endAt = now();
      rec.outcome = outcome;
      if (!isChild) return;
      inFlight--;
      // The kill-all row waits for every child's stream to have closed.
      if (++childrenEnded === children) process.send?.({ event: 'fanoutEnded', at: rec.endAt });
    });
  };
  model = await startLoopbackModel({
    dialect: 'openai',
    respond(req) {
      const at = now();
      const first = firstUserText(req.body);
      if (first === ROOT_PROMPT) {
        const rec = { arriveAt: at, withResults: toolResults(req.body).length > 0 };
        rootCalls.push(rec);
        track(req, rec, false);
        if (!rec.withResults) {
          return spawnChildren(children);
        }
        const results = toolResults(req.body);
        resultCheck = checkResults(results, children);
        return { kind: 'text', chunks: ['All ', 'children ', 'answered.'] };
      }
      const m = CHILD_PROMPT_RE.exec(first);
      const rec = { child: m ? Number(m[1]) : -1, arriveAt: at };
      childReqs.push(rec);
      inFlight++;
      peakInFlight = Math.max(peakInFlight, inFlight);
      track(req, rec, true);
      // The kill-all row waits for every child's request before it kills.
      if (childReqs.length === children) process.send?.({ event: 'fanoutInFlight', at: now() });
      return { kind: 'text', chunks: [childAnswer(rec.child)], delayMs: childDelayMs };
    },
  });
  return {
    url: model.url,
    stats: () => ({ rootCalls, childReqs, peakInFlight, resultCheck }),
    close: () => model.close(),
  };
}

// ---------------------------------------------------------------------------------------
// fanout-shell (the ledger benchmark): as fanout, but each child's first request gets one
// `shell` call (`shellCommandOf(i)`), and its answer comes once the call's result is back.

const shellCommandOf = (i) => `echo child ${i} > out-${i}.txt`;

async function openFanoutShell({ children, childDelayMs }) {
  const rootCalls = [];
  const childReqs = [];
  const model = await startLoopbackModel({
    dialect: 'openai',
    respond(req) {
      const at = now();
      const first = firstUserText(req.body);
      const results = toolResults(req.body);
      if (first === ROOT_PROMPT) {
        rootCalls.push({ arriveAt: at, withResults: results.length > 0 });
        if (results.length === 0) return spawnChildren(children);
        return { kind: 'text', chunks: ['All children answered.'] };
      }
      const m = CHILD_PROMPT_RE.exec(first);
      const child = m ? Number(m[1]) : -1;
      childReqs.push({ child, arriveAt: at, withResults: results.length > 0 });
      if (results.length === 0)
        return { kind: 'tools', calls: [{ id: `shell_${child}`, name: 'shell', args: { command: shellCommandOf(child) } }] };
      return { kind: 'text', chunks: [childAnswer(child)], delayMs: childDelayMs };
    },
  });
  return { url: model.url, stats: () => ({ rootCalls, childReqs }), close: () => model.close() };
}

// ---------------------------------------------------------------------------------------

const scenarios = {
  'paced-text': openPacedText,
  fanout: openFanout,
  'fanout-shell': openFanoutShell,
  'agents-tree': openAgentsTree,
  'fanout-pane': openFanoutPane,
  'huge-reply': openHugeReply,
};

process.on('message', async (/** @type {any} */ msg) => {
  const reply = (data) => process.send({ id: msg.id, ...data });
  try {
    if (msg.cmd === 'open') {
      if (current) await current.close();
      const open = scenarios[msg.scenario];
      if (!open) throw new Error(`unknown scenario ${msg.scenario}`);
      current = await open(msg.options ?? {});
      reply({ ok: true, url: current.url });
    } else if (msg.cmd === 'stats') {
      // Give the last 'ended' callbacks a moment: the client may see its answer before
      // this side records that the response finished.
      await new Promise((r) => setTimeout(r, 20));
      reply({ ok: true, stats: current ? current.stats() : undefined });
    } else if (msg.cmd === 'close') {
      if (current) await current.close();
      current = undefined;
      reply({ ok: true });
    } else {
      throw new Error(`unknown command ${msg.cmd}`);
    }
  } catch (err) {
    reply({ ok: false, error: err && err.stack ? err.stack : String(err) });
  }
});

process.on('disconnect', () => {
  void (current ? current.close() : Promise.resolve()).finally(() => process.exit(0));
});
process.send({ event: 'ready' });
