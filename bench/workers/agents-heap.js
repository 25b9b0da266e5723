// Asks a process started with --inspect=127.0.0.1:<port> for a full garbage collection and
// its V8 heap usage, over the DevTools protocol. The agents-pane benchmark uses it to tell
// memory the children really keep from garbage not yet collected, without changing arbor.
// Runs with --experimental-websocket (Node 20 has no global WebSocket otherwise).
//
// IPC: {id, cmd: 'heap', port} → {id, ok, usedBytes, totalBytes}.

async function devtoolsUrl(port) {
  const res = await fetch(`http://127.0.0.1:${port}/json/list`);
  const targets = await res.json();
  const target = targets.find((t) => t.webSocketDebuggerUrl);
  if (!target) throw new Error(`no inspector target on port ${port}`);
  return target.webSocketDebuggerUrl;
}

function session(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const pending = new Map();
    let nextId = 1;
    ws.onerror = (/** @type {any} */ e) => reject(new Error(`inspector connection failed: ${e.message ?? 'error'}`));
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data));
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${msg.error.message}`));
      else p.resolve(msg.result);
    };
    ws.onopen = () =>
      resolve({
        send(method, params = {}) {
          const id = nextId++;
          ws.send(JSON.stringify({ id, method, params }));
          return new Promise((res, rej) => pending.set(id, { resolve: res, reject: rej }));
        },
        close: () => ws.close(),
      });
  });
}

async function heap(port) {
  const s = await session(await devtoolsUrl(port));
  try {
    // Twice: the first pass can leave objects that only become unreachable after finalizers.
    await s.send('HeapProfiler.collectGarbage');
    await s.send('HeapProfiler.collectGarbage');
    const usage = await s.send('Runtime.getHeapUsage');
    return { usedBytes: usage.usedSize, totalBytes: usage.totalSize };
  } finally {
    s.close();
  }
}

process.on('message', async (/** @type {any} */ msg) => {
  const reply = (data) => process.send({ id: msg.id, ...data });
  try {
    if (msg.cmd !== 'heap') throw new Error(`unknown command ${msg.cmd}`);
    reply({ ok: true, ...(await heap(msg.port)) });
  } catch (err) {
    reply({ ok: false, error: err && err.stack ? err.stack : String(err) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ event: 'ready' });
