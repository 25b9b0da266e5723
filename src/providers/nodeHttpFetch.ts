// A `fetch` for the AI SDK providers built on node:http / node:https with keep-alive agents.
// Node 20's global fetch (undici) costs 2-3x the CPU of a node:http exchange (about 1 ms
// vs 0.35 ms per short SSE request here), which adds up in a fan-out of many short child
// requests (bench/spawn-fanout); through the SDK it saves about 0.3 ms per request.
// It speaks only what the providers send: a string or byte body to an http(s) URL. Anything
// else (a Request object, form data, another scheme, a non-default redirect mode) and every
// redirect go to the global fetch, which implements the full spec.
//
// It keeps fetch's observable behaviour where the SDK and our error mapping depend on it:
// a failure before the response rejects with TypeError('fetch failed', {cause}); a body that
// breaks errors its stream with TypeError('terminated', {cause}); an abort rejects, or errors
// the body, with the signal's reason (an AbortError DOMException by default).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { MAX_TIMER_MS } from '../timers/timer.js';

export type FetchFunction = typeof globalThis.fetch;

export interface NodeHttpFetch extends FetchFunction {
  /** Closes every connection this fetch opened, idle or in use. */
  close(): void;
}

export interface NodeHttpFetchOptions {
  /** Where requests this fetch does not handle go; the global fetch by default. */
  fallback?: FetchFunction;
  /** How long an idle pooled connection is kept. Below the 5 s many servers use, so a
   * request is not written to a socket the server is just closing. */
  idleSocketMs?: number;
  /** A request fails when its connection is silent this long, waiting for the headers or
   * between body chunks: undici's headersTimeout / bodyTimeout, 300 s. */
  silenceTimeoutMs?: number;
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
// Bytes buffered in the body stream before the socket is paused.
const BODY_HIGH_WATER_BYTES = 64 * 1024;
// The most handed on in one turn of the event loop. The SDK parses what it is given in one
// run of promise callbacks, with no I/O in between: a 1,000-call reply (250 KB, read from
// the socket in one go) held every connection the runtime was opening for its first
// children until all 1,000 calls were parsed, 0.4-1.9 s. In slices of this size a child's
// request goes out after ~60 calls' parse. Streamed text never reads this much at once.
const BODY_SLICE_BYTES = 16 * 1024;

interface Plan {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
}

function headerRecord(init: HeadersInit | undefined): Record<string, string> | undefined {
  if (init === undefined) return {};
  if (init instanceof Headers || Array.isArray(init)) {
    const out: Record<string, string> = {};
    new Headers(init).forEach((value, key) => (out[key] = value));
    return out;
  }
  if (typeof init !== 'object' || init === null) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(init)) {
    if (value !== undefined && value !== null) out[key.toLowerCase()] = String(value);
  }
  return out;
}

/** The request this fetch can send itself, or undefined to leave it to the fallback. */
function planFor(input: unknown, init: RequestInit | undefined): Plan | undefined {
  let url: URL;
  if (typeof input === 'string') {
    try {
      url = new URL(input);
    } catch {
      return undefined;
    }
  } else if (input instanceof URL) {
    url = input;
  } else {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (init?.redirect !== undefined && init.redirect !== 'follow') return undefined;
  const raw = init?.body;
  let body: string | Uint8Array | undefined;
  if (raw === undefined || raw === null) body = undefined;
  else if (typeof raw === 'string' || raw instanceof Uint8Array) body = raw;
  else return undefined;
  const headers = headerRecord(init?.headers);
  if (!headers) return undefined;
  const method = (init?.method ?? 'GET').toUpperCase();
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) return undefined;
  if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  return { url, method, headers, body, signal: init?.signal ?? undefined };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

interface ResponseHead {
  pairs: Array<[string, string]>;
  encoding: string;
  location: boolean;
}

/** Response headers in order, plus the two this fetch acts on, read in one pass over the
 * raw list (IncomingMessage.headers would build a second copy). */
function readHead(res: IncomingMessage): ResponseHead {
  const pairs: Array<[string, string]> = [];
  let encoding = '';
  let location = false;
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    const value = raw[i + 1];
    pairs.push([name, value]);
    if (name.length === 16 && name.toLowerCase() === 'content-encoding') encoding = value.trim().toLowerCase();
    else if (name.length === 8 && name.toLowerCase() === 'location') location = value !== '';
  }
  return { pairs, encoding, location };
}

/** The decoded body: fetch undoes gzip, deflate and br; anything else stays as sent. */
function decoded(res: IncomingMessage, encoding: string): Readable {
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(createGunzip());
  if (encoding === 'deflate') return res.pipe(createInflate());
  if (encoding === 'br') return res.pipe(createBrotliDecompress());
  return res;
}

function timeoutError(code: 'UND_ERR_HEADERS_TIMEOUT' | 'UND_ERR_BODY_TIMEOUT', ms: number): Error {
  const what = code === 'UND_ERR_HEADERS_TIMEOUT' ? 'headers' : 'body';
  return Object.assign(new Error(`no ${what} data from the server for ${ms} ms`), { code });
}

export function createNodeHttpFetch(opts: NodeHttpFetchOptions = {}): NodeHttpFetch {
  const fallback = opts.fallback ?? ((input, init) => globalThis.fetch(input, init));
  const idleSocketMs = opts.idleSocketMs ?? 4000;
  const silenceMs = opts.silenceTimeoutMs ?? 300_000;
  // Node destroys a pooled socket when this timeout fires while it is idle; a socket in use
  // gets the request's own silence timeout instead (the agent restores this one when freed).
  const httpAgent = new HttpAgent({ keepAlive: true, timeout: idleSocketMs });
  const httpsAgent = new HttpsAgent({ keepAlive: true, timeout: idleSocketMs });

  function send(plan: Plan, input: Parameters<FetchFunction>[0], init: RequestInit | undefined): Promise<Response> {
    const { signal } = plan;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<Response>((resolve, reject) => {
      const https = plan.url.protocol === 'https:';
      const options: RequestOptions = { method: plan.method, headers: plan.headers, agent: https ? httpsAgent : httpAgent };
      const req = (https ? httpsRequest : httpRequest)(plan.url, options);
      let responded = false;
      let finished = false;
      let body: ReadableStreamDefaultController<Uint8Array> | undefined;

      const settle = () => {
        finished = true;
        signal?.removeEventListener('abort', onAbort);
      };
      // Ends the body stream once, with whichever of end / error / abort came first.
      const failBody = (reason: unknown) => {
        if (finished) return;
        settle();
        try {
          body?.error(reason);
        } catch {
          /* the consumer already cancelled it */
        }
      };
      const onAbort = () => {
        const reason = abortReason(signal!);
        if (!responded) {
          settle();
          reject(reason);
        } else {
          failBody(reason);
        }
        req.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      // Same codes as undici's timeouts, so the SDK counts them as retryable network errors.
      // A socket timeout past Node's timer limit would be cut to 24.8 days with a warning; such
      // a silence is left to the provider's own first-byte and idle timers (timers/timer.ts).
      if (silenceMs <= MAX_TIMER_MS) {
        req.setTimeout(silenceMs, () => {
          const err = timeoutError(responded ? 'UND_ERR_BODY_TIMEOUT' : 'UND_ERR_HEADERS_TIMEOUT', silenceMs);
          if (responded) failBody(new TypeError('terminated', { cause: err }));
          req.destroy(err);
        });
      }

      req.on('error', (err) => {
        if (!responded) {
          if (finished) return;
          settle();
          reject(new TypeError('fetch failed', { cause: err }));
        } else {
          failBody(new TypeError('terminated', { cause: err }));
        }
      });

      req.on('response', (res) => {
        responded = true;
        if (finished) {
          res.destroy();
          return;
        }
        const status = res.statusCode ?? 0;
        const head = readHead(res);
        if (REDIRECT_STATUS.has(status) && head.location) {
          // Rare for model APIs; the global fetch applies the spec's redirect rules.
          settle();
          res.resume();
          resolve(fallback(input, init));
          return;
        }
        if (status < 200 || status > 599) {
          settle();
          res.destroy();
          reject(new TypeError('fetch failed', { cause: new Error(`unexpected HTTP status ${status}`) }));
          return;
        }
        const source = decoded(res, head.encoding);
        const stream =
          NULL_BODY_STATUS.has(status) || plan.method === 'HEAD'
            ? null
            : new ReadableStream<Uint8Array>(
                {
                  start(controller) {
                    body = controller;
                  },
                  pull() {
                    source.resume();
                  },
                  cancel() {
                    settle();
                    res.destroy();
                  },
                },
                { highWaterMark: BODY_HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
              );
        // Node's parser emits every chunk of a chunked body on its own, and an SSE server
        // writes one chunk per event: passing them on one by one would push each event
        // through the SDK's whole stream pipeline separately. What one socket read brings
        // is handed on as one piece, as undici's fetch does.
        const pending: Buffer[] = [];
        let pendingBytes = 0;
        let flushQueued = false;
        let sliceQueued = false;
        let ended = false;
        const closeIfDone = () => {
          if (!ended || finished || pending.length > 0) return;
          settle();
          body?.close();
        };
        // Up to one slice from the front of what is pending, copying only pieces below it.
        const take = (): Buffer => {
          const first = pending[0];
          if (first.length >= BODY_SLICE_BYTES) {
            if (first.length === BODY_SLICE_BYTES) pending.shift();
            else pending[0] = first.subarray(BODY_SLICE_BYTES);
            pendingBytes -= BODY_SLICE_BYTES;
            return first.subarray(0, BODY_SLICE_BYTES);
          }
          let bytes = 0;
          let count = 0;
          while (count < pending.length && bytes + pending[count].length <= BODY_SLICE_BYTES) bytes += pending[count++].length;
          const parts = pending.splice(0, count);
          pendingBytes -= bytes;
          return parts.length === 1 ? parts[0] : Buffer.concat(parts, bytes);
        };
        const flush = () => {
          flushQueued = false;
          if (finished || !body || pending.length === 0) return;
          body.enqueue(take());
          if (pending.length > 0 && !sliceQueued) {
            sliceQueued = true;
            setImmediate(() => {
              sliceQueued = false;
              flush();
              closeIfDone();
            });
          }
          if ((body.desiredSize ?? 1) <= 0 || pendingBytes >= BODY_HIGH_WATER_BYTES) source.pause();
          else if (pending.length === 0 && !ended) source.resume();
        };
        source.on('data', (chunk: Buffer) => {
          if (finished || !body) return;
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes >= BODY_HIGH_WATER_BYTES) source.pause();
          if (!flushQueued && !sliceQueued) {
            flushQueued = true;
            queueMicrotask(flush);
          }
        });
        source.on('end', () => {
          if (finished) return;
          ended = true;
          if (!sliceQueued) flush();
          closeIfDone();
        });
        const broke = (err?: Error) => failBody(new TypeError('terminated', { cause: err ?? new Error('other side closed') }));
        source.on('error', broke);
        if (source !== res) res.on('error', broke);
        // A socket closed before the body ended, without an 'error' event.
        res.on('close', () => {
          if (!res.complete) broke();
        });
        if (!stream) source.resume();
        resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: head.pairs }));
      });

      req.end(plan.body);
    });
  }

  const fetchImpl = (input: Parameters<FetchFunction>[0], init?: RequestInit): Promise<Response> => {
    const plan = planFor(input, init);
    return plan ? send(plan, input, init) : fallback(input, init);
  };
  return Object.assign(fetchImpl, {
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  }) as NodeHttpFetch;
}
