// Counts actions (sliding one-hour window) and spend (per UTC day) against a risk
// profile's limits. A child never gets its own fresh tracker: it records into its
// parent's, so spawning can never reset or bypass a limit. The messages are returned as
// tool errors, so the model reads them: fixed English that names the limit and the knob.
import type { RiskProfile } from '../config/types.js';
import type { ActionTracker } from './types.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

type Limits = Pick<RiskProfile, 'name' | 'max_actions_per_hour' | 'max_cost_per_day_cents'>;

/** Which limits a message is about, and where the operator raises them. */
export interface LimitScope {
  label: string;
  knob: string;
}

export const ACTION_LIMIT_REACHED = (limit: number, scope: LimitScope, waitMinutes: number) =>
  `Action limit reached: max_actions_per_hour = ${limit} (${scope.label}) is used up for the last hour; ` +
  `the next action is possible in about ${waitMinutes} min. Raise max_actions_per_hour in ${scope.knob} to allow more.`;

export const COST_LIMIT_REACHED = (limitCents: number, spentCents: number, scope: LimitScope) =>
  `Daily cost limit reached: ${spentCents.toFixed(2)} cents spent today (UTC) of max_cost_per_day_cents = ${limitCents} ` +
  `(${scope.label}); it resets at 00:00 UTC. Raise max_cost_per_day_cents in ${scope.knob} to allow more.`;

function profileScope(name: string): LimitScope {
  return { label: `risk profile '${name}'`, knob: `[risk_profiles.${name}]` };
}

const CHILD_SCOPE: LimitScope = { label: 'subagent override', knob: "the spawning agent's override for this subagent" };

/** Bookkeeping for one pair of limits; 0 (or less) means no limit on that axis. */
class Bucket {
  private readonly actions: number[] = [];
  private day = -1;
  private spentUsd = 0;

  constructor(
    private readonly maxActionsPerHour: number,
    private readonly maxCostPerDayCents: number,
    private readonly scope: LimitScope,
    private readonly now: () => number,
  ) {}

  /** The refusal for one more action, without recording it. */
  actionRefusal(): string | undefined {
    if (!(this.maxActionsPerHour > 0)) return undefined;
    const now = this.now();
    while (this.actions.length > 0 && this.actions[0] <= now - HOUR_MS) this.actions.shift();
    if (this.actions.length < this.maxActionsPerHour) return undefined;
    const waitMs = this.actions[0] + HOUR_MS - now;
    return ACTION_LIMIT_REACHED(this.maxActionsPerHour, this.scope, Math.max(1, Math.ceil(waitMs / 60_000)));
  }

  commitAction(): void {
    if (this.maxActionsPerHour > 0) this.actions.push(this.now());
  }

  addCost(usd: number): void {
    if (!Number.isFinite(usd) || usd <= 0) return;
    this.rollDay();
    this.spentUsd += usd;
  }

  costRefusal(): string | undefined {
    if (!(this.maxCostPerDayCents > 0)) return undefined;
    this.rollDay();
    const spentCents = this.spentUsd * 100;
    if (spentCents < this.maxCostPerDayCents) return undefined;
    return COST_LIMIT_REACHED(this.maxCostPerDayCents, spentCents, this.scope);
  }

  private rollDay(): void {
    const day = Math.floor(this.now() / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.spentUsd = 0;
    }
  }
}

export function createActionTracker(risk: Limits, now: () => number = Date.now): ActionTracker {
  const bucket = new Bucket(risk.max_actions_per_hour, risk.max_cost_per_day_cents, profileScope(risk.name), now);
  return {
    recordAction() {
      const refusal = bucket.actionRefusal();
      if (refusal) return refusal;
      bucket.commitAction();
      return undefined;
    },
    recordCostUsd(usd) {
      bucket.addCost(usd);
    },
    costExceeded() {
      return bucket.costRefusal();
    },
  };
}

export interface ChildLimits {
  max_actions_per_hour?: number;
  max_cost_per_day_cents?: number;
}

/** A child's tracker: every action and cent lands in the parent's bucket too, and the
 * child's own (tighter) limits, when given, are enforced on top. */
export function narrowedTracker(parent: ActionTracker, childLimits: ChildLimits = {}, now: () => number = Date.now): ActionTracker {
  const own = new Bucket(childLimits.max_actions_per_hour ?? 0, childLimits.max_cost_per_day_cents ?? 0, CHILD_SCOPE, now);
  return {
    recordAction() {
      const childRefusal = own.actionRefusal();
      if (childRefusal) return childRefusal;
      const parentRefusal = parent.recordAction();
      if (parentRefusal) return parentRefusal;
      own.commitAction();
      return undefined;
    },
    recordCostUsd(usd) {
      parent.recordCostUsd(usd);
      own.addCost(usd);
    },
    costExceeded() {
      return own.costRefusal() ?? parent.costExceeded();
    },
  };
}
