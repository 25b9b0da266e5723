// One atomic iteration budget per root turn (`max_execution_tree_iterations`).
// Every model iteration anywhere in the tree consumes a slot. Children may reserve only
// while more than one slot remains, so the root always keeps its final slot for a
// tools-free answer. JavaScript runs reservations one at a time, so a check-and-decrement
// in one synchronous step cannot overrun or wrap, however many children reserve at once.

export type RootReservation = 'ok' | 'final' | 'exhausted';

export class ExecutionBudget {
  private used = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`max_execution_tree_iterations must be a whole number >= 1 (got ${limit})`);
    }
  }

  get remaining(): number {
    return this.limit - this.used;
  }

  get consumed(): number {
    return this.used;
  }

  /** The root's reservation: 'final' means this is the last slot and the call must be tools-free. */
  reserveRoot(): RootReservation {
    const left = this.remaining;
    if (left <= 0) return 'exhausted';
    this.used += 1;
    return left === 1 ? 'final' : 'ok';
  }

  /** A child's reservation: granted only while more than one slot remains. */
  reserveChild(): boolean {
    if (this.remaining <= 1) return false;
    this.used += 1;
    return true;
  }
}

/** The model-facing error when a child's view of the budget is spent. */
export function budgetExhaustedMessage(limit: number): string {
  return `execution-tree iteration budget exhausted (max_execution_tree_iterations = ${limit}); the remaining slot is reserved for the root's final answer`;
}
