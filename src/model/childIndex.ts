// Children by parent, kept up to date incrementally from the store's creation order.
// Counting a parent's live children used to scan every run, once per spawn: a 1,000-child
// fan-out paid a million steps for that alone. runOrder only ever grows by appending, so the
// index reads just the ids added since it last looked (and starts over if the order was
// ever replaced, e.g. by a restore).

/** What the index reads of a run: its parent, and the tool call that started it. */
export interface ChildLookup {
  get(id: string): { parentRunId?: string; parentToolCallId?: string } | undefined;
}

export class ChildIndex {
  private byParent = new Map<string, string[]>();
  /** Children by parent and the call that started them (`parent \0 callId`). */
  private byCall = new Map<string, string[]>();
  private seen: readonly string[] = [];
  private count = 0;
  /** Per parent, how many of its first children are known to have ended (an end is final). */
  private endedPrefix = new Map<string, number>();

  of(order: readonly string[], runs: ChildLookup, parentRunId: string): readonly string[] {
    this.catchUp(order, runs);
    return this.byParent.get(parentRunId) ?? [];
  }

  /** The children that one tool call of the parent started, in creation order. */
  ofCall(order: readonly string[], runs: ChildLookup, parentRunId: string, callId: string): readonly string[] {
    this.catchUp(order, runs);
    return this.byCall.get(`${parentRunId}\u0000${callId}`) ?? [];
  }

  /** How many of the parent's children `isLive` holds for; children that ended in creation
   * order are skipped for good, so a long fan-out does not recount its finished children. */
  liveCount(order: readonly string[], runs: ChildLookup, parentRunId: string, isLive: (id: string) => boolean): number {
    const kids = this.of(order, runs, parentRunId);
    let start = this.endedPrefix.get(parentRunId) ?? 0;
    while (start < kids.length && !isLive(kids[start])) start++;
    this.endedPrefix.set(parentRunId, start);
    let live = 0;
    for (let i = start; i < kids.length; i++) if (isLive(kids[i])) live++;
    return live;
  }

  private catchUp(order: readonly string[], runs: ChildLookup): void {
    if (order === this.seen) return;
    const appended = order.length >= this.count && (this.count === 0 || order[this.count - 1] === this.seen[this.count - 1]);
    if (!appended) {
      this.byParent = new Map();
      this.byCall = new Map();
      this.endedPrefix = new Map();
      this.count = 0;
    }
    for (let i = this.count; i < order.length; i++) {
      const run = runs.get(order[i]);
      const parent = run?.parentRunId;
      if (parent === undefined) continue;
      push(this.byParent, parent, order[i]);
      if (run?.parentToolCallId !== undefined) push(this.byCall, `${parent}\u0000${run.parentToolCallId}`, order[i]);
    }
    this.count = order.length;
    this.seen = order;
  }
}

function push(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}
