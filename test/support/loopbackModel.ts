// A fake model server on 127.0.0.1 that speaks the real wire formats (OpenAI chat-completions
// SSE, Anthropic messages SSE), scripted per request. Tests, the pty e2e suite and the
// benchmark point real provider code at it, so it imports nothing from the rest of arbor.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import {
  defaultErrorBody,
  estimateTokens,
  sendJson,
  sendReset,
  sendStall,
  sendText,
  sendTools,
  startStream,
  type Exchange,
  type LoopbackDialect,
  type LoopbackModel,
  type LoopbackOptions,
  type LoopbackRecord,
  type RequestOutcome,
} from './loopbackWire.js';
import { messagesOf, textOf, type WireMessage } from './wireBody.js';
import { requestOf } from './wireRequest.js';

export type {
  LoopbackDialect,
  LoopbackIncoming,
  LoopbackModel,
  LoopbackOptions,
  LoopbackReasoning,
  LoopbackRecord,
  LoopbackReply,
  RequestOutcome,
} from './loopbackWire.js';

function endpointMatches(dialect: LoopbackDialect, path: string): boolean {
  const p = path.split('?')[0];
  return dialect === 'anthropic' ? p.endsWith('/messages') : p.endsWith('/chat/completions');
}

export async function startLoopbackModel(opts: LoopbackOptions): Promise<LoopbackModel> {
  const sockets = new Set<Socket>();
  const requests: LoopbackRecord[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        /* keep the raw text so a test can see what arrived */
      }
      const path = req.url ?? '/';
      const headers = { ...(req.headers as IncomingHttpHeaders) } as Record<string, string | string[] | undefined>;
      let resolveEnded!: (o: RequestOutcome) => void;
      const record: LoopbackRecord = {
        body,
        index: requests.length,
        path,
        headers,
        outcome: 'pending',
        ended: new Promise<RequestOutcome>((r) => (resolveEnded = r)),
      };
      requests.push(record);
      const settle = (o: RequestOutcome) => {
        if (record.outcome !== 'pending') return;
        record.outcome = o;
        resolveEnded(o);
      };
      let closed = false;
      res.on('close', () => {
        closed = true;
        settle(res.writableFinished ? 'completed' : 'client_closed');
      });
      const sentModel: unknown = requestOf(body).model;
      const ex: Exchange = {
        res,
        dialect: opts.dialect,
        model: (opts.answerModel ?? ((m: string) => m))(typeof sentModel === 'string' ? sentModel : 'loopback-model'),
        stream: requestOf(body).stream === true,
        isClosed: () => closed || res.destroyed,
      };
      void handle(ex, record, req.socket, settle).catch((err: unknown) => {
        if (!ex.isClosed() && !res.headersSent) {
          sendJson(ex, JSON.parse(defaultErrorBody(opts.dialect, 500)), 500);
        } else if (!ex.isClosed()) {
          res.destroy(err as Error);
        }
      });
    });
  });

  async function handle(ex: Exchange, record: LoopbackRecord, socket: Socket, settle: (o: RequestOutcome) => void) {
    if (!endpointMatches(opts.dialect, record.path)) {
      ex.res.writeHead(404, { 'content-type': 'application/json' });
      ex.res.end(defaultErrorBody(opts.dialect, 404));
      return;
    }
    const reply = await opts.respond({ body: record.body, index: record.index, path: record.path, headers: record.headers });
    const promptTokens = estimateTokens(JSON.stringify(requestOf(record.body).messages ?? ''));
    switch (reply.kind) {
      case 'text':
        return sendText(ex, reply, promptTokens);
      case 'tools':
        return sendTools(ex, reply, promptTokens);
      case 'status':
        ex.res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
        ex.res.end(reply.body ?? defaultErrorBody(opts.dialect, reply.status));
        return;
      case 'reset':
        settle('reset');
        return sendReset(ex, reply, socket);
      case 'hang':
        startStream(ex);
        return;
      case 'silent':
        return;
      case 'stall':
        sendStall(ex, reply.afterChunks);
        return;
    }
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        sockets.clear();
        server.close(() => resolve());
      }),
  };
}

// ---- helpers for scripting replies, valid for both dialects ----

/** An Anthropic tool_result part inside a user message. */
interface ToolResultPart {
  type: 'tool_result';
  tool_use_id?: unknown;
  content?: unknown;
  is_error?: unknown;
}

function toolResultParts(m: WireMessage): ToolResultPart[] {
  if (!Array.isArray(m.content)) return [];
  return (m.content as unknown[]).filter(
    (p): p is ToolResultPart => typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'tool_result',
  );
}

function isToolResultMessage(m: WireMessage | undefined): boolean {
  if (m?.role === 'tool') return true;
  return m?.role === 'user' && toolResultParts(m).length > 0;
}

/** The text of the last user message that was written by a person, not tool results. */
export function lastUserText(body: unknown): string {
  const messages = messagesOf(body);
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    const text = textOf(m.content);
    if (text !== '' || !isToolResultMessage(m)) return text;
  }
  return '';
}

/** True when the conversation ends with tool results: the model is being asked to continue
 * after its tool calls ran. */
export function hasToolResults(body: unknown): boolean {
  const messages = messagesOf(body);
  return messages.length > 0 && isToolResultMessage(messages[messages.length - 1]);
}

/** The tool results at the end of the conversation, in order, for either dialect. */
export function trailingToolResults(body: unknown): Array<{ toolCallId: string; content: string; isError: boolean }> {
  const messages = messagesOf(body);
  const out: Array<{ toolCallId: string; content: string; isError: boolean }> = [];
  for (let i = messages.length - 1; i >= 0 && isToolResultMessage(messages[i]); i--) {
    const m = messages[i];
    if (m.role === 'tool') {
      out.unshift({ toolCallId: String(m.tool_call_id), content: textOf(m.content), isError: false });
    } else {
      out.unshift(
        ...toolResultParts(m).map((p) => ({
          toolCallId: String(p.tool_use_id),
          content: typeof p.content === 'string' ? p.content : textOf(p.content),
          isError: p.is_error === true,
        })),
      );
    }
  }
  return out;
}
