// What a grep worker thread runs (grepPool.ts starts the threads). The matching runs off the
// main thread so a regular expression that backtracks for minutes (`(a+)+$` over a long
// line) cannot freeze the screen or any other agent: the pool's timer ends the thread.
//
// grepWorkerMain is sent to the thread as source text (Function.prototype.toString) and not
// loaded as a module file, so the same code runs from src/ under vitest, from the tsc
// output in build/ and from the release bundle in dist/ (which has no separate file to
// load). It must therefore use nothing from outside its own body but its parameters and
// JavaScript's globals: no imports, no module-level helpers or constants (types are fine,
// they are erased). The tests run it in every mode they load the tool in.
import type * as Fs from 'node:fs';

/** Fixed for the life of a thread. */
export interface GrepWorkerData {
  /** Written before each file, so the pool can tell a thread stuck in one file from one
   * that is slow, and name the file: [files started, job id, batch index, index in the
   * batch]. */
  progress: SharedArrayBuffer;
  /** Files larger than this are skipped. */
  maxBytes: number;
  /** A NUL in the first this many bytes makes a file binary. */
  sniffBytes: number;
  lineCap: number;
  lineCut: string;
  /** Whether /proc/self/fd says where a descriptor is (Linux). */
  procFd: boolean;
}

/** One grep, sent to every thread of the pool. The threads take its batches (consecutive
 * files of the sorted listing) through a shared counter, so no thread waits for the main
 * thread between batches (on a loaded machine each such wake-up cost milliseconds). */
export interface GrepJob {
  id: number;
  /** Paths relative to `real`, joined by NUL (one string is copied to a thread at once; an
   * array of 10,000 names cost more than a millisecond per thread); [''] with `fd` set
   * searches the root file itself. Batch i is names [i * per, (i + 1) * per). */
  names: string;
  per: number;
  count: number;
  /** [next unclaimed batch, 1 once the search is stopped]. */
  claims: SharedArrayBuffer;
  /** Per batch: the matches whose lines it kept, -1 until it is done. */
  kept: SharedArrayBuffer;
  real: string;
  /** The verified descriptor of a root that is a file, else -1. */
  fd: number;
  /** Forbidden folders and the holes a fence leaves in one (pathGuard.ts's Barrier). */
  forbidden: Array<{ path: string; except: string[] }>;
  source: string;
  flags: string;
  /** Plain runs every match contains (requiredLiteral.ts): a file without one is skipped.
   * `rare`: the offset of its rarest byte (rareByteAt), or -1. */
  literals: Array<{ text: string; rare: number }>;
  /** How many matches content mode prints, so how many keep their text (0: none). */
  room: number;
  context: number;
}

export interface WireHits {
  rel: string;
  /** 0-based numbers of the matching lines. */
  lines: number[];
  /** Lines in the file. */
  count: number;
  /** [0-based line, cut text] for the lines content mode may print. */
  text?: Array<[number, string]>;
}

/** This thread has no more batches of the job to take: what it found in those it took
 * (one message per thread and job, so the main thread wakes once per thread, not once per
 * batch). */
export interface GrepDone {
  job: number;
  batches: Array<{ index: number; found: WireHits[] }>;
}

export interface WorkerPort {
  on(event: 'message', listener: (job: GrepJob) => void): unknown;
  postMessage(done: GrepDone): void;
}

export function grepWorkerMain(fs: typeof Fs, port: WorkerPort, data: GrepWorkerData): void {
  const progress = new Int32Array(data.progress);
  const scratch = Buffer.allocUnsafe(data.maxBytes + 1);
  const FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
  let compiled: { key: string; re: RegExp; literals: Array<{ bytes: Buffer; rare: number }> } | undefined;

  const inside = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

  /** Fills `scratch`; undefined when the file is larger than maxBytes. A read shorter than
   * asked is the end of a regular file (a second read to see 0 was a syscall per file). */
  const readAll = (fd: number): Buffer | undefined => {
    let at = 0;
    for (;;) {
      const want = scratch.length - at;
      const n = fs.readSync(fd, scratch, at, want, at);
      at += n;
      if (at > data.maxBytes) return undefined;
      if (n < want) break;
    }
    return scratch.subarray(0, at);
  };

  /** The content of a file of the listing, or undefined when it is not a regular file of
   * at most maxBytes under the root (a symlink, a swapped directory, a FIFO, gone). Opened
   * by the real path with O_NOFOLLOW; where the descriptor really is then decides, so a
   * directory on the way swapped for a link after the listing is not followed. Synchronous
   * on purpose: this thread does nothing else, and a thread-pool round trip per file cost
   * several times the read. The result is only valid until the next read. */
  const readConfined = (job: GrepJob, rel: string): Buffer | undefined => {
    let fd: number;
    try {
      fd = fs.openSync(`${job.real}/${rel}`, FLAGS);
    } catch {
      return undefined;
    }
    try {
      if (data.procFd) {
        const where = fs.readlinkSync(`/proc/self/fd/${fd}`);
        if (!inside(where, job.real) || job.forbidden.some((f) => inside(where, f.path) && !f.except.some((e) => inside(where, e)))) {
          return undefined;
        }
      }
      return readAll(fd);
    } catch {
      return undefined; // EISDIR, EAGAIN (a FIFO), gone: not a file to search.
    } finally {
      fs.closeSync(fd);
    }
  };

  const readRoot = (fd: number): Buffer | undefined => {
    try {
      return fs.fstatSync(fd).isFile() ? readAll(fd) : undefined;
    } catch {
      return undefined;
    }
  };

  /** Whether `buf` holds `bytes`: a scan for its rarest byte, each hit compared in place
   * (what ripgrep's prefilter does; several times faster than a substring search whose
   * first and last bytes are common), or the substring search once the rare byte turns out
   * not to be rare in this file. */
  const contains = (buf: Buffer, bytes: Buffer, rare: number): boolean => {
    if (rare < 0) return buf.indexOf(bytes) !== -1;
    const byte = bytes[rare];
    const n = bytes.length;
    let misses = 0;
    for (let i = buf.indexOf(byte, rare); i !== -1; i = buf.indexOf(byte, i + 1)) {
      const start = i - rare;
      if (start + n <= buf.length && buf.compare(bytes, 0, n, start, start + n) === 0) return true;
      if (++misses > 32) return buf.indexOf(bytes, start + 1) !== -1;
    }
    return false;
  };

  const cut = (line: string) => (line.length > data.lineCap ? `${line.slice(0, data.lineCap)}${data.lineCut}` : line);
  const noCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

  const searchText = (
    buf: Buffer,
    re: RegExp,
    literals: Array<{ bytes: Buffer; rare: number }>,
    room: number,
    context: number,
  ): Omit<WireHits, 'rel'> | undefined => {
    for (const l of literals) if (!contains(buf, l.bytes, l.rare)) return undefined;
    // Only the first bytes decide (git's rule of thumb), so only they are scanned.
    if (buf.subarray(0, data.sniffBytes).indexOf(0) !== -1) return undefined;
    const text = buf.toString('utf8');
    // The whole text first, which is one native scan: a file it does not match has no
    // matching line. Not for a '$' in a CRLF file: '$' does not match before '\r', a line
    // without its '\r' does.
    if (!(re.source.includes('$') && text.includes('\r')) && !re.test(text)) return undefined;
    const lines = text.split('\n');
    // The last "line" of a file ending in a newline is empty, not a line.
    const count = lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
    const hits: number[] = [];
    for (let i = 0; i < count; i++) if (re.test(noCr(lines[i]))) hits.push(i);
    if (hits.length === 0) return undefined;
    if (room <= 0) return { lines: hits, count };
    const kept = new Map<number, string>();
    for (const at of hits.slice(0, room)) {
      for (let i = Math.max(0, at - context); i <= Math.min(count - 1, at + context); i++) {
        if (!kept.has(i)) kept.set(i, cut(noCr(lines[i])));
      }
    }
    return { lines: hits, count, text: [...kept] };
  };

  const searchBatch = (
    job: GrepJob,
    all: string[],
    index: number,
    re: RegExp,
    literals: Array<{ bytes: Buffer; rare: number }>,
    kept: Int32Array,
  ) => {
    // What this batch may print: the room left after the batches before it that are done
    // (those that are not can only lower it).
    let room = job.room;
    for (let i = 0; i < index; i++) room -= Math.max(0, Atomics.load(kept, i));
    const names = all.slice(index * job.per, (index + 1) * job.per);
    const found: WireHits[] = [];
    let used = 0;
    Atomics.store(progress, 2, index);
    for (let k = 0; k < names.length; k++) {
      Atomics.store(progress, 3, k);
      Atomics.add(progress, 0, 1);
      const rel = names[k];
      const buf = job.fd >= 0 ? readRoot(job.fd) : readConfined(job, rel);
      const left = room - used;
      const hits = buf ? searchText(buf, re, literals, left, job.context) : undefined;
      if (hits) {
        found.push({ rel, ...hits });
        used += Math.min(Math.max(left, 0), hits.lines.length);
      }
    }
    Atomics.store(kept, index, used);
    return found;
  };

  port.on('message', (job) => {
    const key = `${job.flags}/${job.source}`;
    if (compiled?.key !== key) {
      compiled = {
        key,
        re: new RegExp(job.source, job.flags),
        literals: job.literals.map((l) => ({ bytes: Buffer.from(l.text, 'utf8'), rare: l.rare })),
      };
    }
    const { re, literals } = compiled;
    const claims = new Int32Array(job.claims);
    const kept = new Int32Array(job.kept);
    Atomics.store(progress, 1, job.id);
    const done: GrepDone = { job: job.id, batches: [] };
    const all = job.names.split('\0');
    for (;;) {
      if (Atomics.load(claims, 1) !== 0) break;
      const index = Atomics.add(claims, 0, 1);
      if (index >= job.count) break;
      done.batches.push({ index, found: searchBatch(job, all, index, re, literals, kept) });
    }
    port.postMessage(done);
  });
}
