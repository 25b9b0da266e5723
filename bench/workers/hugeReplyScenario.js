// huge-reply (issue 10 item 8): a prompt containing a `replies[].match` gets a reply of that
// entry's `bytes` of text, streamed as fast as the socket takes it in OpenAI chat-completions SSE events of
// `chunkBytes` of content each; any other prompt gets a short answer naming the prompt. One
// pre-serialised event is written over and over, so the server's own CPU stays small.
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { lastUserText } from '../lib/messages.js';
import { listenOnLoopback } from '../lib/loopbackServer.js';

const now = () => performance.timeOrigin + performance.now();

/** Markdown-neutral prose lines of about 80 characters. */
function contentOf(bytes) {
  const line = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor inc\n';
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

export async function openHugeReply({ replies, chunkBytes = 16 * 1024 }) {
  const shortAnswer = (p) => `ANSWER to ${p}`;
  const streams = [];
  const chunk = (id, delta, finish = null, usage) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: 'fake-model', choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;

  const server = createServer((req, res) => {
    const parts = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', async () => {
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      } catch {
        /* answered below */
      }
      const prompt = lastUserText(body);
      const id = `chatcmpl-huge-${streams.length + 1}`;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.write(chunk(id, { role: 'assistant', content: '' }));
      let closed = false;
      res.on('close', () => (closed = true));
      const record = { prompt, bytes: 0, requestAt: now(), lastAt: 0 };
      streams.push(record);
      const big = replies.find((r) => prompt.includes(r.match));
      if (big) {
        const event = chunk(id, { content: contentOf(chunkBytes) });
        while (record.bytes < big.bytes && !closed) {
          record.bytes += chunkBytes;
          if (!res.write(event)) await new Promise((r) => res.once('drain', r));
        }
      } else {
        res.write(chunk(id, { content: shortAnswer(prompt) }));
      }
      if (closed) return;
      res.write(chunk(id, {}, 'stop'));
      res.write(chunk(id, undefined, null, { prompt_tokens: 10, completion_tokens: Math.ceil(record.bytes / 4) + 1, total_tokens: 11 }));
      res.write('data: [DONE]\n\n');
      res.end(() => {
        record.lastAt = now();
        process.send?.({ event: 'streamEnd', stream: record });
      });
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, stats: () => ({ streams }), close };
}
