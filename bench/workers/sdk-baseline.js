// Baselines measured in the same run as the benchmarks they explain: the same model
// requests without arbor, so a missed target can be split into "the provider layer" and
// "arbor". Modes: `streamText` (the AI SDK call the providers are built on) and `fetch`
// (reading the SSE body as text with the global, undici-based fetch) and `http` (the same
// exchange on node:http with a keep-alive Agent: the floor for one HTTP exchange in Node).
// All prompts are sent at once; the reply is {cpuUserUs, cpuSystemUs, wallMs}.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

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

process.on('message', async (/** @type {any} */ msg) => {
  try {
    if (msg.cmd !== 'measure') throw new Error(`unknown command ${msg.cmd}`);
    process.send({ id: msg.id, ok: true, ...(await measure(msg)) });
  } catch (err) {
    process.send({ id: msg.id, ok: false, error: err && err.stack ? err.stack : String(err) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ event: 'ready' });
