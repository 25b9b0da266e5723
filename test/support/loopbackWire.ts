// The two wire formats the loopback model speaks: OpenAI chat-completions SSE and Anthropic
// messages SSE (plus their non-streaming JSON bodies and error bodies). Node built-ins only:
// the benchmark imports it compiled, from build/support/.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type LoopbackDialect = 'openai' | 'anthropic';

/** Reasoning streamed before the reply. OpenAI dialect: `chunks` as `reasoning_content`
 * deltas (or `reasoning`, as some gpt-oss servers send), `reasoningTokens` as
 * completion_tokens_details.reasoning_tokens. Anthropic dialect: a `thinking` block of
 * `chunks` closed by a `signature_delta`, and/or a `redacted_thinking` block. */
export interface LoopbackReasoning {
  chunks: string[];
  field?: 'reasoning_content' | 'reasoning';
  signature?: string;
  redacted?: string;
  reasoningTokens?: number;
  /** Waited before each reasoning chunk. */
  delayMs?: number;
  /** Sends the first `afterChunks` chunks, then waits for `until` before the rest. */
  hold?: { afterChunks: number; until: Promise<unknown> };
}

export type LoopbackReply =
  /** Streams `chunks` as text deltas; `delayMs` is waited before EACH chunk (so a single
   * chunk with delayMs 50 answers after 50 ms). */
  | {
      kind: 'text';
      chunks: string[];
      delayMs?: number;
      usage?: { input: number; output: number };
      reasoning?: LoopbackReasoning;
      /** Sends the first `afterChunks` chunks, then waits for `until` before the rest: a
       * test sees the reply part-way for as long as it needs, with no clock involved. */
      hold?: { afterChunks: number; until: Promise<unknown> };
    }
  /** Streams tool calls (arguments split into fragments); `args` as a string is sent verbatim,
   * which is how a test sends arguments that do not parse. */
  | {
      kind: 'tools';
      calls: Array<{ id?: string; name: string; args: object | string }>;
      text?: string;
      usage?: { input: number; output: number };
      reasoning?: LoopbackReasoning;
      /** Sends the first `afterCalls` calls, then waits for `until` before the rest and the
       * end: a reply still streaming while the client acts on its first calls. */
      hold?: { afterCalls: number; until: Promise<unknown> };
    }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  /** Streams `afterChunks` as text, then destroys the socket. With no chunks, the socket is
   * destroyed before any response byte (a connection reset). */
  | { kind: 'reset'; afterChunks: string[] }
  /** Sends the stream headers, then nothing, until the client goes away. */
  | { kind: 'hang' }
  /** Accepts the request and never answers: not even the status line. */
  | { kind: 'silent' }
  /** Streams `afterChunks` as text, then goes quiet with the connection open. */
  | { kind: 'stall'; afterChunks: string[] };

export interface LoopbackIncoming {
  body: unknown;
  index: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export type RequestOutcome = 'pending' | 'completed' | 'client_closed' | 'reset';

export interface LoopbackRecord {
  body: unknown;
  index: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** How the exchange ended; 'client_closed' means the client dropped the socket first. */
  outcome: RequestOutcome;
  /** Resolves once the exchange has ended, with its outcome. */
  ended: Promise<RequestOutcome>;
}

export interface LoopbackOptions {
  dialect: LoopbackDialect;
  respond: (req: LoopbackIncoming) => LoopbackReply | Promise<LoopbackReply>;
  /** The model id the replies name (default: the one asked for), as a server that resolves
   * an alias to a dated version does. */
  answerModel?: (requested: string) => string;
}

export interface LoopbackModel {
  /** Base URL to configure: http://127.0.0.1:<port>/v1 (clients post /v1/chat/completions
   * or /v1/messages below it). */
  url: string;
  requests: LoopbackRecord[];
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Splits a string into up to `parts` fragments, the way servers stream tool arguments. */
function fragments(text: string, parts = 3): string[] {
  if (text.length === 0) return [''];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export interface Exchange {
  res: ServerResponse;
  dialect: LoopbackDialect;
  model: string;
  stream: boolean;
  isClosed: () => boolean;
}

export function writeEvent(ex: Exchange, type: string, data: unknown): void {
  if (ex.isClosed()) return;
  if (ex.dialect === 'anthropic') ex.res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  else ex.res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

export function startStream(ex: Exchange): void {
  ex.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  ex.res.flushHeaders();
}

let idCounter = 0;
const nextId = (prefix: string) => `${prefix}${(++idCounter).toString(36)}${Date.now().toString(36)}`;

// ---- OpenAI chat-completions ----

function openaiChunk(ex: Exchange, id: string, delta: object, finish: string | null = null): object {
  return {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: ex.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

function openaiUsage(ex: Exchange, id: string, usage: { input: number; output: number }, reasoningTokens?: number): object {
  return {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: ex.model,
    choices: [],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      ...(reasoningTokens ? { completion_tokens_details: { reasoning_tokens: reasoningTokens } } : {}),
    },
  };
}

/** What comes before chunk `i`: the pace (`delayMs`), and the `hold`, if it holds there. */
async function paced(pace: { delayMs?: number; hold?: { afterChunks: number; until: Promise<unknown> } }, i: number): Promise<void> {
  if (pace.hold?.afterChunks === i) await pace.hold.until;
  if (pace.delayMs) await sleep(pace.delayMs);
}

/** Streams the reasoning that comes before the reply; returns the next Anthropic block index. */
async function sendReasoning(ex: Exchange, id: string, reasoning: LoopbackReasoning | undefined): Promise<number> {
  if (!reasoning) return 0;
  let index = 0;
  if (ex.dialect === 'anthropic' && reasoning.chunks.length > 0) {
    writeEvent(ex, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } });
    for (const [i, chunk] of reasoning.chunks.entries()) {
      await paced(reasoning, i);
      writeEvent(ex, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: chunk } });
    }
    writeEvent(ex, 'content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'signature_delta', signature: reasoning.signature ?? '' },
    });
    writeEvent(ex, 'content_block_stop', { type: 'content_block_stop', index });
    index++;
  }
  if (ex.dialect === 'anthropic' && reasoning.redacted !== undefined) {
    writeEvent(ex, 'content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'redacted_thinking', data: reasoning.redacted },
    });
    writeEvent(ex, 'content_block_stop', { type: 'content_block_stop', index });
    index++;
  }
  if (ex.dialect === 'openai') {
    for (const [i, chunk] of reasoning.chunks.entries()) {
      await paced(reasoning, i);
      writeEvent(ex, 'chunk', openaiChunk(ex, id, { [reasoning.field ?? 'reasoning_content']: chunk }));
    }
  }
  return index;
}

// ---- Anthropic messages ----

function anthropicStart(ex: Exchange, inputTokens: number): void {
  writeEvent(ex, 'message_start', {
    type: 'message_start',
    message: {
      id: nextId('msg_'),
      type: 'message',
      role: 'assistant',
      model: ex.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    },
  });
}

function anthropicEnd(ex: Exchange, stopReason: string, outputTokens: number): void {
  writeEvent(ex, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  });
  writeEvent(ex, 'message_stop', { type: 'message_stop' });
}

export async function sendText(ex: Exchange, reply: Extract<LoopbackReply, { kind: 'text' }>, promptTokens: number) {
  const text = reply.chunks.join('');
  const usage = reply.usage ?? { input: promptTokens, output: estimateTokens(text) };
  if (!ex.stream) {
    if (reply.delayMs) await sleep(reply.delayMs);
    sendJson(ex, fullTextBody(ex, text, usage));
    return;
  }
  startStream(ex);
  const id = nextId('chatcmpl-');
  if (ex.dialect === 'anthropic') anthropicStart(ex, usage.input);
  else writeEvent(ex, 'chunk', openaiChunk(ex, id, { role: 'assistant', content: '' }));
  const textIndex = await sendReasoning(ex, id, reply.reasoning);
  if (ex.dialect === 'anthropic') {
    writeEvent(ex, 'content_block_start', { type: 'content_block_start', index: textIndex, content_block: { type: 'text', text: '' } });
  }
  for (const [i, chunk] of reply.chunks.entries()) {
    await paced(reply, i);
    if (ex.isClosed()) return;
    if (ex.dialect === 'anthropic') {
      writeEvent(ex, 'content_block_delta', {
        type: 'content_block_delta',
        index: textIndex,
        delta: { type: 'text_delta', text: chunk },
      });
    } else {
      writeEvent(ex, 'chunk', openaiChunk(ex, id, { content: chunk }));
    }
  }
  if (ex.dialect === 'anthropic') {
    writeEvent(ex, 'content_block_stop', { type: 'content_block_stop', index: textIndex });
    anthropicEnd(ex, 'end_turn', usage.output);
  } else {
    writeEvent(ex, 'chunk', openaiChunk(ex, id, {}, 'stop'));
    writeEvent(ex, 'chunk', openaiUsage(ex, id, usage, reply.reasoning?.reasoningTokens));
    writeEvent(ex, 'done', '[DONE]');
  }
  ex.res.end();
}

interface NormalizedCall {
  id: string;
  name: string;
  args: string;
}

function normalizeCalls(reply: Extract<LoopbackReply, { kind: 'tools' }>, dialect: LoopbackDialect): NormalizedCall[] {
  return reply.calls.map((c) => ({
    id: c.id ?? nextId(dialect === 'anthropic' ? 'toolu_' : 'call_'),
    name: c.name,
    args: typeof c.args === 'string' ? c.args : JSON.stringify(c.args),
  }));
}

export async function sendTools(ex: Exchange, reply: Extract<LoopbackReply, { kind: 'tools' }>, promptTokens: number) {
  const calls = normalizeCalls(reply, ex.dialect);
  const usage = reply.usage ?? {
    input: promptTokens,
    output: estimateTokens((reply.text ?? '') + calls.map((c) => c.name + c.args).join('')),
  };
  if (!ex.stream) {
    sendJson(ex, fullToolsBody(ex, calls, reply.text ?? '', usage));
    return;
  }
  startStream(ex);
  if (ex.dialect === 'anthropic') {
    anthropicStart(ex, usage.input);
    let index = await sendReasoning(ex, '', reply.reasoning);
    if (reply.text) {
      writeEvent(ex, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      writeEvent(ex, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: reply.text } });
      writeEvent(ex, 'content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    for (const [i, call] of calls.entries()) {
      if (reply.hold && i === reply.hold.afterCalls) await reply.hold.until;
      if (ex.isClosed()) return;
      writeEvent(ex, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      });
      for (const part of fragments(call.args)) {
        writeEvent(ex, 'content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: part },
        });
      }
      writeEvent(ex, 'content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    anthropicEnd(ex, 'tool_use', usage.output);
  } else {
    const id = nextId('chatcmpl-');
    if (reply.reasoning) {
      writeEvent(ex, 'chunk', openaiChunk(ex, id, { role: 'assistant', content: null }));
      await sendReasoning(ex, id, reply.reasoning);
      if (reply.text) writeEvent(ex, 'chunk', openaiChunk(ex, id, { content: reply.text }));
    } else {
      writeEvent(ex, 'chunk', openaiChunk(ex, id, { role: 'assistant', content: reply.text ?? null }));
    }
    for (const [index, call] of calls.entries()) {
      if (reply.hold && index === reply.hold.afterCalls) await reply.hold.until;
      if (ex.isClosed()) return;
      writeEvent(
        ex,
        'chunk',
        openaiChunk(ex, id, {
          tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
        }),
      );
      for (const part of fragments(call.args)) {
        writeEvent(ex, 'chunk', openaiChunk(ex, id, { tool_calls: [{ index, function: { arguments: part } }] }));
      }
    }
    writeEvent(ex, 'chunk', openaiChunk(ex, id, {}, 'tool_calls'));
    writeEvent(ex, 'chunk', openaiUsage(ex, id, usage, reply.reasoning?.reasoningTokens));
    writeEvent(ex, 'done', '[DONE]');
  }
  ex.res.end();
}

function fullTextBody(ex: Exchange, text: string, usage: { input: number; output: number }): object {
  return fullToolsBody(ex, [], text, usage);
}

function fullToolsBody(ex: Exchange, calls: NormalizedCall[], text: string, usage: { input: number; output: number }) {
  if (ex.dialect === 'anthropic') {
    const content: object[] = [];
    if (text) content.push({ type: 'text', text });
    for (const c of calls) {
      let input: unknown;
      try {
        input = JSON.parse(c.args);
      } catch {
        input = {};
      }
      content.push({ type: 'tool_use', id: c.id, name: c.name, input });
    }
    return {
      id: nextId('msg_'),
      type: 'message',
      role: 'assistant',
      model: ex.model,
      content,
      stop_reason: calls.length ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  }
  return {
    id: nextId('chatcmpl-'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: ex.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || null,
          ...(calls.length
            ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) }
            : {}),
        },
        finish_reason: calls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}

export function sendJson(ex: Exchange, body: object, status = 200, headers: Record<string, string> = {}): void {
  if (ex.isClosed()) return;
  ex.res.writeHead(status, { 'content-type': 'application/json', ...headers });
  ex.res.end(JSON.stringify(body));
}

export function defaultErrorBody(dialect: LoopbackDialect, status: number): string {
  const kind =
    status === 401
      ? 'authentication_error'
      : status === 403
        ? 'permission_error'
        : status === 404
          ? 'not_found_error'
          : status === 429
            ? 'rate_limit_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error';
  const message = `loopback status ${status}`;
  return dialect === 'anthropic'
    ? JSON.stringify({ type: 'error', error: { type: kind, message } })
    : JSON.stringify({ error: { message, type: kind, code: null } });
}

/** Starts a text reply, sends `chunks`, then says nothing more (the socket stays open). */
export function sendStall(ex: Exchange, chunks: string[]): void {
  startStream(ex);
  const id = nextId('chatcmpl-');
  if (ex.dialect === 'anthropic') {
    anthropicStart(ex, 1);
    writeEvent(ex, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  } else {
    writeEvent(ex, 'chunk', openaiChunk(ex, id, { role: 'assistant', content: '' }));
  }
  for (const chunk of chunks) {
    if (ex.dialect === 'anthropic') {
      writeEvent(ex, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: chunk } });
    } else {
      writeEvent(ex, 'chunk', openaiChunk(ex, id, { content: chunk }));
    }
  }
}

export async function sendReset(ex: Exchange, reply: Extract<LoopbackReply, { kind: 'reset' }>, socket: Socket) {
  if (reply.afterChunks.length > 0) {
    startStream(ex);
    const id = nextId('chatcmpl-');
    if (ex.dialect === 'anthropic') {
      anthropicStart(ex, 1);
      writeEvent(ex, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    }
    for (const chunk of reply.afterChunks) {
      if (ex.dialect === 'anthropic') {
        writeEvent(ex, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: chunk } });
      } else {
        writeEvent(ex, 'chunk', openaiChunk(ex, id, { content: chunk }));
      }
    }
    // Let the chunks reach the client before the connection dies.
    await sleep(20);
  }
  socket.destroy();
}
