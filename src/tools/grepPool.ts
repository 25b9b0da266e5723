// The threads grep matches in (grepWorker.ts says what each runs). Off the main thread for
// two reasons: a regular expression that backtracks without end must not freeze the screen
// and every other agent (a thread stuck in one file past the time limit is ended and the
// grep fails saying so), and the files are read and matched on every core, as git grep does.
// One pool serves every grep in the process. A grep is cut into batches of consecutive
// files and sent to every thread; the threads take batches through a shared counter until
// none is left. Threads idle for a while exit.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { startTimer, type Timer } from '../timers/timer.js';
import { grepWorkerMain, type GrepDone, type GrepJob, type GrepWorkerData, type WireHits } from './grepWorker.js';

const IDLE_EXIT_MS = 60_000;
/** At least two, so one grep stuck until its time limit leaves a thread for the others. */
const THREADS = Math.max(2, Math.min(4, availableParallelism()));
const PROC_FD = existsSync('/proc/self/fd');

/** What a grep asks: the job without what the pool fills in. */
export type GrepSpec = Omit<GrepJob, 'id' | 'names' | 'per' | 'count' | 'claims' | 'kept'>;

export type PoolResult =
  | { ok: true; found: WireHits[] }
  | { ok: false; reason: 'aborted' }
  | { ok: false; reason: 'slow'; file: string }
  | { ok: false; reason: 'crashed'; message: string };

/** Settled once for the pool: every thread is started with them. */
export type PoolLimits = Omit<GrepWorkerData, 'progress' | 'procFd'>;

interface Job {
  message: GrepJob;
  names: string[];
  results: Array<WireHits[] | undefined>;
  done: number;
  timeLimitMs: number;
  claims: Int32Array;
  settle: (r: PoolResult) => void;
  settled: boolean;
}

interface Slot {
  worker: Worker;
  progress: Int32Array;
  /** Jobs sent to this thread that it has not yet said it is through with. */
  jobs: Set<Job>;
  watch?: Timer;
  idle?: Timer;
}

export class GrepPool {
  private slots: Slot[] = [];
  private jobs = new Map<number, Job>();
  private nextId = 1;

  constructor(
    private readonly limits: PoolLimits,
    private readonly size = THREADS,
  ) {}

  /** Searches `names` (sorted); the found files come back in the same order. */
  run(names: string[], spec: GrepSpec, signal: AbortSignal, timeLimitMs: number): Promise<PoolResult> {
    if (signal.aborted) return Promise.resolve({ ok: false, reason: 'aborted' });
    if (names.length === 0) return Promise.resolve({ ok: true, found: [] });
    // Enough batches that a thread the machine starves does not hold up the rest, few
    // enough that messages cost nothing next to the reads.
    const per = Math.min(1000, Math.max(16, Math.ceil(names.length / (this.size * 8))));
    const count = Math.ceil(names.length / per);
    const claims = new SharedArrayBuffer(8);
    const kept = new SharedArrayBuffer(4 * count);
    new Int32Array(kept).fill(-1);
    const message: GrepJob = { ...spec, id: this.nextId++, names: names.join('\0'), per, count, claims, kept };
    return new Promise<PoolResult>((resolve) => {
      const job: Job = {
        message,
        names,
        results: new Array<WireHits[] | undefined>(count),
        done: 0,
        timeLimitMs,
        claims: new Int32Array(claims),
        settled: false,
        settle: (r) => {
          if (job.settled) return;
          job.settled = true;
          // Threads not yet at its batches skip them.
          Atomics.store(job.claims, 1, 1);
          this.jobs.delete(message.id);
          signal.removeEventListener('abort', onAbort);
          // Stopped early: a thread still inside one of its batches is ended (stuck or not,
          // its answer is no longer wanted).
          if (!r.ok) {
            for (const slot of [...this.slots]) {
              if (slot.jobs.has(job) && Atomics.load(slot.progress, 1) === message.id) this.retire(slot);
            }
          }
          resolve(r);
        },
      };
      const onAbort = () => job.settle({ ok: false, reason: 'aborted' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.jobs.set(message.id, job);
      while (this.slots.length < this.size) this.slots.push(this.spawn());
      for (const slot of this.slots) this.send(slot, job);
    });
  }

  /** Ends every thread (tests, shutdown). */
  async close(): Promise<void> {
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map((s) => this.stop(s)));
  }

  private spawn(): Slot {
    const progress = new SharedArrayBuffer(16);
    const workerData: GrepWorkerData = { ...this.limits, progress, procFd: PROC_FD };
    const source =
      `"use strict";\nconst { parentPort, workerData } = require('node:worker_threads');\n` +
      `(${grepWorkerMain.toString()})(require('node:fs'), parentPort, workerData);\n`;
    // stdout/stderr stay in the thread: nothing it could print may reach the screen.
    // The thread needs no environment: it gets none, so no secret is ever within its reach.
    const worker = new Worker(source, { eval: true, workerData, env: {}, stdout: true, stderr: true });
    const slot: Slot = { worker, progress: new Int32Array(progress), jobs: new Set() };
    worker.on('message', (done: GrepDone) => this.answered(slot, done));
    worker.on('error', (err: Error) => this.crashed(slot, err.message));
    worker.on('exit', (code) => this.crashed(slot, `the search thread exited (code ${code})`));
    return slot;
  }

  private send(slot: Slot, job: Job): void {
    slot.idle?.clear();
    slot.idle = undefined;
    slot.jobs.add(job);
    slot.worker.ref();
    if (!slot.watch?.pending) this.watch(slot);
    slot.worker.postMessage(job.message);
  }

  /** Re-armed while the thread keeps starting files; a thread that started none for a
   * whole time limit of the job it is in is stuck, and that job fails. */
  private watch(slot: Slot): void {
    let seen = Atomics.load(slot.progress, 0);
    const limit = () => Math.min(...[...slot.jobs].map((j) => j.timeLimitMs));
    const check = () => {
      if (slot.jobs.size === 0) return;
      const now = Atomics.load(slot.progress, 0);
      const job = this.jobs.get(Atomics.load(slot.progress, 1));
      if (now !== seen || !job || !slot.jobs.has(job)) {
        seen = now;
        slot.watch = startTimer(limit(), check);
        return;
      }
      const at = Atomics.load(slot.progress, 2) * job.message.per + Atomics.load(slot.progress, 3);
      job.settle({ ok: false, reason: 'slow', file: job.names[at] ?? '' });
    };
    slot.watch = startTimer(limit(), check);
  }

  private answered(slot: Slot, done: GrepDone): void {
    for (const j of slot.jobs) if (j.message.id === done.job) slot.jobs.delete(j);
    if (slot.jobs.size === 0) this.rest(slot);
    const job = this.jobs.get(done.job);
    if (!job || job.settled) return;
    for (const { index, found } of done.batches) job.results[index] = found;
    job.done += done.batches.length;
    if (job.done === job.results.length) job.settle({ ok: true, found: job.results.flatMap((r) => r ?? []) });
  }

  /** Nothing to do: the thread no longer keeps the process alive, and exits if it stays idle. */
  private rest(slot: Slot): void {
    slot.watch?.clear();
    slot.worker.unref();
    slot.idle = startTimer(IDLE_EXIT_MS, () => this.retire(slot), { unref: true });
  }

  private crashed(slot: Slot, message: string): void {
    if (!this.slots.includes(slot)) return;
    const job = this.jobs.get(Atomics.load(slot.progress, 1));
    this.retire(slot);
    if (job && !job.settled) job.settle({ ok: false, reason: 'crashed', message });
  }

  /** Takes a thread out of the pool and ends it; the unfinished jobs it was sent go to a
   * new thread (the one it was inside has been settled, or is settled by the caller). */
  private retire(slot: Slot): void {
    if (!this.slots.includes(slot)) return;
    this.slots = this.slots.filter((s) => s !== slot);
    const current = Atomics.load(slot.progress, 1);
    const pending = [...slot.jobs].filter((j) => !j.settled && j.message.id !== current);
    slot.jobs.clear();
    void this.stop(slot);
    if (pending.length === 0) return;
    const fresh = this.spawn();
    this.slots.push(fresh);
    for (const job of pending) this.send(fresh, job);
  }

  private async stop(slot: Slot): Promise<void> {
    slot.watch?.clear();
    slot.idle?.clear();
    slot.worker.removeAllListeners('exit');
    slot.worker.removeAllListeners('error');
    slot.worker.removeAllListeners('message');
    slot.worker.on('error', () => undefined);
    await slot.worker.terminate();
  }
}
