// Each child run's own transcript, by run id, as an immutable value with structural
// sharing. A streaming child replaces its transcript many times a second; copying one
// record of every run for each of those (what `{ ...byRun, [id]: items }` does) allocates
// ~100 KB per update once a tree has 200 runs, and the garbage dominated arbor's memory
// under a large tree. Here an update copies one small bucket and the bucket index.
import type { TranscriptItem } from '../model/transcript.js';

const BUCKETS = 32;
type Bucket = ReadonlyMap<string, readonly TranscriptItem[]>;

function bucketOf(runId: string): number {
  // FNV-1a over the id: run ids are UUIDs, so any character mix spreads them.
  let h = 0x811c9dc5;
  for (let i = 0; i < runId.length; i++) {
    h ^= runId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % BUCKETS;
}

export class RunTranscripts {
  static readonly empty = new RunTranscripts(new Array<Bucket | undefined>(BUCKETS).fill(undefined), 0);

  private constructor(
    private readonly buckets: readonly (Bucket | undefined)[],
    /** How many runs have a transcript. */
    readonly size: number,
  ) {}

  /** The run's items, or undefined when it has none yet. */
  get(runId: string): TranscriptItem[] | undefined {
    return this.buckets[bucketOf(runId)]?.get(runId) as TranscriptItem[] | undefined;
  }

  /** A new value with the run's items replaced; this one is left as it was. */
  with(runId: string, items: readonly TranscriptItem[]): RunTranscripts {
    const b = bucketOf(runId);
    const old = this.buckets[b];
    const bucket = new Map(old);
    bucket.set(runId, items);
    const buckets = this.buckets.slice();
    buckets[b] = bucket;
    return new RunTranscripts(buckets, old?.has(runId) ? this.size : this.size + 1);
  }
}
