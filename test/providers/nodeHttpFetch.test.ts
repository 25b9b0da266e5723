// The node:http fetch the AI SDK providers use, against raw loopback servers: it must behave
// like the global fetch wherever the SDK and our error mapping look (status, headers,
// streamed body, abort, resets, refused connections, timeouts) and hand off what it does
// not speak.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeHttpFetch, type FetchFunction, type NodeHttpFetch } from '../../src/providers/nodeHttpFetch.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  socket: Socket;
  closed: Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

let server: Server | undefined;
let sockets = new Set<Socket>();
let fetcher: NodeHttpFetch | undefined;

afterEach(async () => {
  fetcher?.close();
  fetcher = undefined;
  for (const s of sockets) s.destroy();
  sockets = new Set();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(handler: Handler): Promise<{ url: string; seen: Seen[]; connections: () => number }> {
  const seen: Seen[] = [];
  let connections = 0;
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts).toString('utf8'),
        socket: req.socket,
        closed,
      };
      seen.push(entry);
      handler(req, res, entry);
    });
  });
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, connections: () => connections };
}

function make(opts: Parameters<typeof createNodeHttpFetch>[0] = {}): NodeHttpFetch {
  fetcher = createNodeHttpFetch(opts);
  return fetcher;
}

/** A server that answers `events` as one chunk each in the chunked encoding, all in one TCP write. */
const serveInOneWrite = (events: string[]) =>
  serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.cork();
    for (const e of events) res.write(e);
    res.end();
    res.uncork();
  });

/** Reads a body to its end: the size of each piece handed on, and the text; `onPiece` sees
 * the sizes so far after each piece. */
async function readToEnd(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  onPiece?: (sizes: number[]) => void,
): Promise<{ sizes: number[]; text: string }> {
  const sizes: number[] = [];
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    sizes.push(value.byteLength);
    text += new TextDecoder().decode(value);
    onPiece?.(sizes);
  }
  return { sizes, text };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createNodeHttpFetch', () => {
  it('sends method, headers and body, and returns status, headers and body like fetch', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-request-id': 'r-1' });
      res.end('{"ok":true}');
    });
    const body = JSON.stringify({ text: 'héllo' });
    const res = await make()(`${url}/v1/chat/completions?x=1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer k' },
      body,
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('r-1');
    expect(await res.json()).toEqual({ ok: true });
    expect(seen[0].method).toBe('POST');
    expect(seen[0].url).toBe('/v1/chat/completions?x=1');
    expect(seen[0].headers['authorization']).toBe('Bearer k');
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(seen[0].headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(seen[0].body).toBe(body);
  });

  it('accepts Headers and header pairs, and a URL object', async () => {
    const { url, seen } = await serve((_req, res) => res.end('x'));
    const f = make();
    await (await f(new URL(`${url}/a`), { method: 'POST', headers: new Headers({ 'X-One': '1' }), body: 'b' })).text();
    await (await f(`${url}/b`, { method: 'POST', headers: [['X-Two', '2']], body: new TextEncoder().encode('bytes') })).text();
    expect(seen[0].headers['x-one']).toBe('1');
    expect(seen[1].headers['x-two']).toBe('2');
    expect(seen[1].body).toBe('bytes');
  });

  it('streams the body as it arrives, before the response ends', async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      void released.then(() => res.end('data: two\n\n'));
    });
    const res = await make()(url, { method: 'POST', body: '{}' });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    release();
    expect((await readToEnd(reader)).text).toBe('data: two\n\n');
  });

  it('hands on the events of one socket read as one piece, not one per chunk', async () => {
    const events = Array.from({ length: 60 }, (_, i) => `data: {"n":${i}}\n\n`);
    const { url } = await serveInOneWrite(events);
    const res = await make()(url, { method: 'POST', body: '{}' });
    const { sizes, text } = await readToEnd(res.body!.getReader());
    expect(text).toBe(events.join(''));
    expect(sizes.length).toBeLessThan(5);
  });

  it('hands a large read on in slices of at most 16 KB, with I/O between them, losing nothing', async () => {
    const events = Array.from({ length: 3000 }, (_, i) => `data: {"n":${i},"pad":"${'x'.repeat(80)}"}\n\n`);
    const { url } = await serveInOneWrite(events);
    const { port } = server!.address() as AddressInfo;
    const res = await make()(url, { method: 'POST', body: '{}' });
    let connectedAfter: number | undefined;
    const { sizes, text } = await readToEnd(res.body!.getReader(), (sizes) => {
      // A connection opened now (as a child's request would be) is made before the rest.
      if (sizes.length === 1) {
        const probe = connect(port, '127.0.0.1', () => {
          connectedAfter = sizes.length;
          probe.destroy();
        });
      }
    });
    expect(text).toBe(events.join(''));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16 * 1024);
    expect(sizes.length).toBeGreaterThanOrEqual(Math.floor(text.length / (16 * 1024)));
    expect(connectedAfter).toBeDefined();
    expect(connectedAfter!).toBeLessThan(sizes.length);
  });

  it('stops handing on slices once aborted, erroring the body with the reason', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${'y'.repeat(200 * 1024)}\n\n`);
    });
    const ac = new AbortController();
    const res = await make()(url, { method: 'POST', body: '{}', signal: ac.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeLessThanOrEqual(16 * 1024);
    const reason = new Error('stopped by test');
    ac.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    await seen[0].closed;
  });

  it('returns error statuses as responses with their headers and body', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' });
      res.end('{"error":{"message":"slow down"}}');
    });
    const res = await make()(url, { method: 'POST', body: '{}' });
    expect(res.ok).toBe(false);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.text()).toContain('slow down');
  });

  it('gives a 204 a null body and reuses the connection', async () => {
    const { url, connections } = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const f = make();
    const a = await f(url, { method: 'POST', body: '{}' });
    expect(a.status).toBe(204);
    expect(a.body).toBeNull();
    await tick(10);
    await f(url, { method: 'POST', body: '{}' });
    expect(connections()).toBe(1);
  });

  it('keeps connections alive between requests', async () => {
    const { url, connections } = await serve((_req, res) => res.end('ok'));
    const f = make();
    for (let i = 0; i < 3; i++) expect(await (await f(url, { method: 'POST', body: String(i) })).text()).toBe('ok');
    expect(connections()).toBe(1);
  });

  it('undoes gzip content-encoding', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync('compressed text'));
    });
    expect(await (await make()(url, { method: 'POST', body: '{}' })).text()).toBe('compressed text');
  });

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const { url, seen } = await serve((_req, res) => res.end('x'));
    const ac = new AbortController();
    ac.abort();
    await expect(make()(url, { method: 'POST', body: '{}', signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
    await tick(20);
    expect(seen).toHaveLength(0);
  });

  it('rejects with the abort reason when aborted before the response, closing the connection', async () => {
    const { url, seen } = await serve(() => {
      /* never answers */
    });
    const ac = new AbortController();
    const pending = make()(url, { method: 'POST', body: '{}', signal: ac.signal });
    while (seen.length === 0) await tick(5);
    ac.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await seen[0].closed;
  });

  it('errors the body with the abort reason when aborted mid-stream, closing the connection', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
    });
    const ac = new AbortController();
    const res = await make()(url, { method: 'POST', body: '{}', signal: ac.signal });
    const reader = res.body!.getReader();
    await reader.read();
    const reason = new Error('stopped by test');
    ac.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    await seen[0].closed;
  });

  it('closes the connection when the body is cancelled', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('part');
    });
    const res = await make()(url, { method: 'POST', body: '{}' });
    await res.body!.cancel();
    await seen[0].closed;
  });

  it('errors the body with TypeError "terminated" when the server resets mid-stream', async () => {
    const { url } = await serve((_req, res, seen) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: a\n\n', () => setTimeout(() => seen.socket.resetAndDestroy(), 20));
    });
    const res = await make()(url, { method: 'POST', body: '{}' });
    const reader = res.body!.getReader();
    await reader.read();
    const err = await reader.read().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).message).toBe('terminated');
  });

  it('rejects with TypeError "fetch failed" when the connection resets before a response', async () => {
    const { url } = await serve((_req, _res, seen) => seen.socket.resetAndDestroy());
    const err = await make()(url, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).message).toBe('fetch failed');
    expect(((err as TypeError).cause as { code?: string }).code).toBe('ECONNRESET');
  });

  it('rejects with TypeError "fetch failed" naming ECONNREFUSED when nothing listens', async () => {
    const { url } = await serve((_req, res) => res.end());
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const err = await make()(url, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect((err as TypeError).message).toBe('fetch failed');
    expect(((err as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('fails a request whose server stays silent, before and during the body, with undici codes', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/body') {
        res.writeHead(200);
        res.write('start');
      }
    });
    const f = make({ silenceTimeoutMs: 60 });
    const before = await f(`${url}/headers`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect((before as TypeError).message).toBe('fetch failed');
    expect(((before as TypeError).cause as { code?: string }).code).toBe('UND_ERR_HEADERS_TIMEOUT');
    const res = await f(`${url}/body`, { method: 'POST', body: '{}' });
    const reader = res.body!.getReader();
    await reader.read();
    const during = await reader.read().catch((e: unknown) => e);
    expect((during as TypeError).message).toBe('terminated');
    expect(((during as TypeError).cause as { code?: string }).code).toBe('UND_ERR_BODY_TIMEOUT');
  });

  it('speaks TLS for https URLs', async () => {
    const { url } = await serve((_req, res) => res.end('plain'));
    // A plain-HTTP server cannot complete a TLS handshake: the request must fail in TLS.
    const err = await make()(url.replace('http:', 'https:'), { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect((err as TypeError).message).toBe('fetch failed');
    expect(String(((err as TypeError).cause as Error).message)).toMatch(/ssl|tls|wrong version|EPROTO/i);
  });

  it('hands redirects, other schemes and bodies it does not speak to the fallback fetch', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    });
    const fallback = vi.fn<FetchFunction>(async () => new Response('from fallback'));
    const f = make({ fallback });
    const init = { method: 'POST', body: '{}' };
    expect(await (await f(`${url}/old`, init)).text()).toBe('from fallback');
    expect(fallback).toHaveBeenLastCalledWith(`${url}/old`, init);
    await f('data:text/plain,hi');
    expect(fallback).toHaveBeenLastCalledWith('data:text/plain,hi', undefined);
    const form = new FormData();
    await f(url, { method: 'POST', body: form });
    expect(fallback).toHaveBeenCalledTimes(3);
  });
});
