// An immutable string-keyed map with structural sharing, for store values that change many
// times a second while holding an entry per run. Replacing one entry in a plain record
// (`{ ...byId, [id]: v }`) copies every entry, so a tree of n runs paid O(n) per progress
// update and O(n²) per turn: at 1,000 children that copying was most of the runtime's CPU.
// Here an update copies one small bucket and the bucket index; a new key also appends to
// the shared insertion order (adding is rare next to updating).

const BUCKETS = 64;
type Bucket<V> = ReadonlyMap<string, V>;

function bucketOf(key: string): number {
  // FNV-1a: run ids are UUIDs, so any character mix spreads them.
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % BUCKETS;
}

export class BucketedMap<V> {
  private constructor(
    private readonly buckets: readonly (Bucket<V> | undefined)[],
    /** Keys in the order they were first added. */
    private readonly order: readonly string[],
  ) {}

  static empty<V>(): BucketedMap<V> {
    return new BucketedMap<V>(new Array<Bucket<V> | undefined>(BUCKETS).fill(undefined), []);
  }

  static from<V>(entries: Iterable<readonly [string, V]>): BucketedMap<V> {
    return BucketedMap.empty<V>().withMany(entries);
  }

  get size(): number {
    return this.order.length;
  }

  get(key: string): V | undefined {
    return this.buckets[bucketOf(key)]?.get(key);
  }

  has(key: string): boolean {
    return this.buckets[bucketOf(key)]?.has(key) ?? false;
  }

  /** A new map with the key set; this one is left as it was. */
  with(key: string, value: V): BucketedMap<V> {
    return this.withMany([[key, value]]);
  }

  /** A new map with every entry set, copying each touched bucket once. */
  withMany(entries: Iterable<readonly [string, V]>): BucketedMap<V> {
    let buckets: (Bucket<V> | undefined)[] | undefined;
    let order: string[] | undefined;
    const copied = new Set<number>();
    for (const [key, value] of entries) {
      const b = bucketOf(key);
      buckets ??= this.buckets.slice();
      let bucket = buckets[b] as Map<string, V> | undefined;
      if (!copied.has(b)) {
        bucket = new Map(bucket);
        buckets[b] = bucket;
        copied.add(b);
      }
      if (!bucket!.has(key)) (order ??= this.order.slice()).push(key);
      bucket!.set(key, value);
    }
    return buckets ? new BucketedMap(buckets, order ?? this.order) : this;
  }

  /** Keys in insertion order. */
  keys(): readonly string[] {
    return this.order;
  }

  /** Values in insertion order. */
  values(): V[] {
    return this.order.map((k) => this.get(k)!);
  }

  [Symbol.iterator](): Iterator<V> {
    return this.values()[Symbol.iterator]();
  }

  /** A plain record (what the map replaced), for JSON and for tests that print it. */
  toJSON(): Record<string, V> {
    return Object.fromEntries(this.order.map((k) => [k, this.get(k)!]));
  }
}
