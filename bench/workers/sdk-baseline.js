// Baselines measured in the same run as the benchmarks they explain: the same model
// requests without arbor, so a missed target can be split into "the provider layer" and
// "arbor". Modes: `streamText` (the AI SDK call the providers are built on), `doStream` (the
// provider call under it, which arbor's providers make directly) and `fetch`
// (reading the SSE body as text with the global, undici-based fetch) and `http` (the same
// exchange on node:http with a keep-alive Agent: the floor for one HTTP exchange in Node).
// All prompts are sent at once; the reply is {cpuUserUs, cpuSystemUs, wallMs}.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { now } from '../lib/clock.js';

async function requester(mode, url) {
  if (mode === 'streamText') {
    const { streamText } = await import('ai');
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    const model = createOpenAICompatible({ name: 'bench', baseURL: url, includeUsage: true }).chatModel('fake-model');
    return async (prompt) => {
      const result = streamText({ model, messages: [{ role: 'user', content: prompt }], maxRetries: 0 });
      let text = '';
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') text += part.text;
        else if (part.type === 'error') throw part.error;
      }
      return text;
    };
  }
  if (mode === 'doStream') {
    // The provider's own doStream, which arbor's providers call (no streamText layers).
    const model = await sdkModel(url);
    return async (prompt) => {
      const { stream } = await model.doStream({
        prompt: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
        includeRawChunks: false,
      });
      let text = '';
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (value.type === 'text-delta') text += value.delta;
        else if (value.type === 'error') throw value.error;
      }
      return text;
    };
  }
  if (mode === 'fetch') {
    return async (prompt) => {
      const res = await fetch(`${url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: prompt }] }),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return res.text();
    };
  }
  if (mode === 'http') {
    const agent = new Agent({ keepAlive: true });
    const target = new URL(`${url}/chat/completions`);
    return (prompt) =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: prompt }] });
        const req = request(
          target,
          { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
          (res) => {
            if (res.statusCode !== 200) {
              res.resume();
              reject(new Error(`HTTP ${res.statusCode}`));
              return;
            }
            res.setEncoding('utf8');
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve(text));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
  }
  throw new Error(`unknown baseline mode ${mode}`);
}

async function measure({ url, prompts, mode }) {
  const one = await requester(mode, url);
  globalThis.gc?.();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const texts = await Promise.all(prompts.map((p) => one(p)));
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  const empty = texts.filter((t) => !t).length;
  if (empty) throw new Error(`${mode} baseline: ${empty} of ${prompts.length} requests returned nothing`);
  return { cpuUserUs: cpu.user, cpuSystemUs: cpu.system, wallMs };
}

// The floors of the fan-out's two latency rows: the AI SDK's own doStream (what the
// providers call) on the fan-out's root exchanges, alone in this process.
/** @type {import('@ai-sdk/provider').LanguageModelV3FunctionTool} */
const SPAWN_TOOL = {
  type: 'function',
  name: 'spawn_subagent',
  description: 'Start a child agent.',
  inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
};

async function sdkModel(url) {
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  return createOpenAICompatible({ name: 'bench', baseURL: url, includeUsage: true }).chatModel('fake-model');
}

/** The root's first exchange: when the SDK had the first call whole (the second call's
 * input starting: the earliest any client on it can start a child) and when it had them
 * all (its finish part). Absolute times, compared with the server's last byte. */
async function replyFloor({ url, rootPrompt }) {
  const model = await sdkModel(url);
  const { stream } = await model.doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: rootPrompt }] }],
    tools: [SPAWN_TOOL],
    includeRawChunks: false,
  });
  let starts = 0;
  let firstWholeAt;
  let calls = 0;
  let finishAt;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === 'tool-input-start' && ++starts === 2) firstWholeAt = now();
    else if (value.type === 'tool-call') calls++;
    else if (value.type === 'finish') finishAt = now();
    else if (value.type === 'error') throw value.error;
  }
  return { firstWholeAt, finishAt, calls };
}

/** Reads a doStream reply to its end, as a child run reads its answer. */
async function drain(stream) {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === 'error') throw value.error;
  }
}

/** The root's second exchange: the same history arbor sends (the prompt, the n calls, their
 * n results), from calling doStream to the request's arrival (the server's clock). With
 * `lastChildPrompt`, that child's request is made first and the resume is sent the moment
 * its answer has been read: the server then times last answer → resume request, as it does
 * for arbor. */
async function resumeFloor({ url, rootPrompt, answers, lastChildPrompt }) {
  const model = await sdkModel(url);
  const calls = answers.map((answer, i) => ({ id: `call_${i}`, prompt: answer.prompt, answer: answer.text }));
  /** @type {import('@ai-sdk/provider').LanguageModelV3Prompt} */
  const prompt = [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: [{ type: 'text', text: rootPrompt }] },
    {
      role: 'assistant',
      content: calls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: 'spawn_subagent', input: { prompt: c.prompt } })),
    },
    {
      role: 'tool',
      content: calls.map((c) => ({
        type: 'tool-result',
        toolCallId: c.id,
        toolName: 'spawn_subagent',
        output: { type: 'text', value: c.answer },
      })),
    },
  ];
  globalThis.gc?.();
  if (lastChildPrompt === undefined) {
    const startAt = now();
    const { stream } = await model.doStream({ prompt, tools: [SPAWN_TOOL], includeRawChunks: false });
    await drain(stream);
    return { startAt };
  }
  // The answer's connection is free again when the resume goes out, as a child's is for arbor.
  const answer = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: lastChildPrompt }] }] });
  await drain(answer.stream);
  const startAt = now();
  const { stream } = await model.doStream({ prompt, tools: [SPAWN_TOOL], includeRawChunks: false });
  await drain(stream);
  return { startAt };
}

/** The kill-all floor: n doStream requests held open, each with its own AbortController
 * (as each arbor child has), then every one aborted in one loop. */
let held = [];

async function holdStreams({ url, prompts }) {
  const model = await sdkModel(url);
  held = prompts.map((p) => {
    const controller = new AbortController();
    void Promise.resolve(
      model.doStream({
        prompt: [{ role: 'user', content: [{ type: 'text', text: p }] }],
        abortSignal: controller.signal,
        includeRawChunks: false,
      }),
    )
      .then(async ({ stream }) => {
        const reader = stream.getReader();
        for (;;) if ((await reader.read()).done) break;
      })
      .catch(() => undefined);
    return controller;
  });
  return {};
}

async function abortAll() {
  const killAt = now();
  for (const c of held) c.abort();
  const returnedAt = now();
  held = [];
  return { killAt, returnedAt };
}

const commands = { measure, replyFloor, resumeFloor, holdStreams, abortAll };

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
