// Starts a benchmark's scripted HTTP model server on 127.0.0.1:0 and closes it with every
// keep-alive socket, so a benchmark leaves no listening socket behind.

/**
 * @param {import('node:http').Server} server
 * @returns {Promise<{ url: string, close: () => Promise<void> }>} the OpenAI-style base URL
 */
export async function listenOnLoopback(server) {
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await /** @type {Promise<void>} */ (
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    })
  );
  return {
    url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/v1`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
