// A benchmark helper process (model server, runtime under test) driven over IPC:
// request({cmd, ...}) resolves with the reply carrying the same id; messages with an
// `event` field go to the listeners registered with on().
import { fork } from 'node:child_process';

/** ARBOR_BENCH_PROFILE_DIR=<dir> makes every worker write a V8 CPU profile there (open it in
 * Chrome DevTools or speedscope) to see where a missed target's time goes.
 * ARBOR_BENCH_PROFILE_INTERVAL_US samples more often than V8's 1 ms, for phases only a few
 * milliseconds long (the fan-out's resume). */
function profileArgs() {
  const dir = process.env.ARBOR_BENCH_PROFILE_DIR;
  const interval = Number(process.env.ARBOR_BENCH_PROFILE_INTERVAL_US);
  if (!dir) return [];
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...(interval > 0 ? [`--cpu-prof-interval=${interval}`] : [])];
}

/**
 * @param {string} modulePath
 * @param {{ execArgv?: string[], env?: NodeJS.ProcessEnv, startTimeoutMs?: number }} [options]
 */
export async function startWorker(modulePath, { execArgv = [], env, startTimeoutMs = 30000 } = {}) {
  const child = fork(modulePath, [], {
    execArgv: [...execArgv, ...profileArgs()],
    env: env ?? process.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map();
  const listeners = new Set();
  let nextId = 1;
  let exitInfo;

  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exitInfo = { code, signal };
      for (const { reject } of pending.values()) reject(new Error(`${modulePath} exited (${code ?? signal}) before answering`));
      pending.clear();
      resolve(exitInfo);
    });
  });

  child.on('message', (/** @type {any} */ msg) => {
    if (msg && msg.event) {
      for (const fn of [...listeners]) fn(msg);
      return;
    }
    const p = pending.get(msg?.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg);
    else p.reject(new Error(`${modulePath}: ${msg.error}`));
  });

  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${modulePath} did not start within ${startTimeoutMs} ms`)), startTimeoutMs);
    const onReady = (msg) => {
      if (msg.event !== 'ready') return;
      clearTimeout(timer);
      listeners.delete(onReady);
      resolve();
    };
    listeners.add(onReady);
    void exited.then((info) => {
      clearTimeout(timer);
      reject(new Error(`${modulePath} exited during start (${info.code ?? info.signal})`));
    });
  });

  return {
    pid: child.pid,
    request(message) {
      if (exitInfo) return Promise.reject(new Error(`${modulePath} has exited`));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ ...message, id });
      });
    },
    /** Calls fn for every event message; returns a function that stops it. */
    on(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    /** Resolves with the first event message for which `match` holds. */
    nextEvent(match, timeoutMs = 60000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(fn);
          reject(new Error(`no matching event from ${modulePath} within ${timeoutMs} ms`));
        }, timeoutMs);
        const fn = (msg) => {
          if (!match(msg)) return;
          clearTimeout(timer);
          listeners.delete(fn);
          resolve(msg);
        };
        listeners.add(fn);
      });
    },
    async stop() {
      if (exitInfo) return;
      child.disconnect();
      const gone = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 3000))]);
      if (!gone) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
