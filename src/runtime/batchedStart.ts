// Starts a parallel batch of tool calls a few at a time, letting I/O run between groups.
// Started all in one go, a 1,000-call fan-out ran every call's synchronous prelude (run
// created, policy checked, request built) before the event loop could send the first
// request: the first child left a second after the root's reply. In groups, the first
// children's requests are on the wire while the later ones are still being created. Every
// call is still started, in order, exactly once, and settled() waits for all.
//
// Calls may be added while the model's reply is still streaming (runtime/loop.ts starts
// each call once the reply has it whole): a call added when this turn's group has room
// starts at once, the rest at the next turns of the event loop, a group per turn.
//
// `ramp` (the streamed starts): the first group is one call and each next one twice the
// last, up to the group size, and every group waits for the event loop's I/O phase, not
// just its next turn. A child's request goes out only once its connection's connect event
// has been read: with 16 calls' preludes (and a second group scheduled from the I/O phase
// ran before the next one) ahead of it, the first child's request left after 32 children
// were built — 20-130 ms on a loaded machine instead of a few.

/** How many calls start before the event loop gets a turn. */
export const START_GROUP = 16;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class GroupedStarter {
  private readonly queue: number[] = [];
  private head = 0;
  private startedThisTurn = 0;
  private turnScheduled = false;
  private readonly running: Promise<void>[] = [];
  private failed: { error: unknown } | undefined;
  /** This turn's group size. */
  private budget: number;

  constructor(
    private readonly start: (index: number) => Promise<void>,
    private readonly group = START_GROUP,
    private readonly ramp = false,
  ) {
    this.budget = ramp ? 1 : group;
  }

  /** How many calls were added. */
  get size(): number {
    return this.queue.length;
  }

  /** Starts call `index` now if this turn's group has room, else at a coming turn. */
  add(index: number): void {
    this.queue.push(index);
    this.pump();
  }

  /** Resolves once every call added so far has started and settled; the first failure is
   * rethrown then (a failure never becomes an unhandled rejection meanwhile). */
  async settled(): Promise<void> {
    while (this.head < this.queue.length) await nextTurn();
    await Promise.all(this.running);
    if (this.failed) throw this.failed.error;
  }

  private pump(): void {
    while (this.head < this.queue.length && this.startedThisTurn < this.budget) {
      this.startedThisTurn++;
      const index = this.queue[this.head++];
      let started: Promise<void>;
      try {
        started = this.start(index);
      } catch (error) {
        started = Promise.reject(error);
      }
      this.running.push(
        started.catch((error: unknown) => {
          this.failed ??= { error };
        }),
      );
    }
    if (this.turnScheduled) return;
    // The group's budget is per turn of the event loop: the next turn starts the next group.
    this.turnScheduled = true;
    const nextGroup = () => {
      this.turnScheduled = false;
      if (this.ramp && this.startedThisTurn >= this.budget) this.budget = Math.min(this.group, this.budget * 2);
      this.startedThisTurn = 0;
      if (this.head < this.queue.length) this.pump();
    };
    // An immediate set from an immediate runs on the loop's next pass, after its I/O phase.
    setImmediate(this.ramp ? () => setImmediate(nextGroup) : nextGroup);
  }
}

export async function startInGroups(count: number, start: (index: number) => Promise<void>, group = START_GROUP): Promise<void> {
  const starter = new GroupedStarter(start, group);
  for (let i = 0; i < count; i++) starter.add(i);
  await starter.settled();
}
