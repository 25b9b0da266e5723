// Per-child limits: `max_child_tokens`, `max_child_cost_cents` and `max_child_seconds`
// ([delegation], narrowed per agent by [agents.<alias>]). A child's tokens and cost are its
// subtree's: what its own children spend counts against it too, so "a child never gets more
// than its caller's remaining budget" holds down the whole tree. Seconds are active time
// (the run's PausableTimer: paused time does not count). A child that reaches a limit is
// stopped and ends failed with childBudgetExhausted(...), which its parent model reads.
import type { AgentConfig, DelegationConfig } from '../config/types.js';
import type { Run, RunFailure } from '../model/run.js';
import { PausableTimer } from './pausableTimer.js';

export const CHILD_LIMIT_KEYS = ['max_child_tokens', 'max_child_cost_cents', 'max_child_seconds'] as const;
export type ChildLimitKey = (typeof CHILD_LIMIT_KEYS)[number];
export type ChildLimits = Partial<Record<ChildLimitKey, number>>;

/** What the parent model reads (in the failed tool result) when a child reaches a limit:
 * the limit, its configured value and the measured one. Protocol text: tested byte for byte. */
export const childBudgetExhausted = (key: ChildLimitKey, limit: number, used: string) =>
  `child budget exhausted: ${key} = ${limit}, used ${used}; the child was stopped`;

/** The run's failure for that stop: the text above, and its code and values for the view. */
function budgetFailure(key: ChildLimitKey, limit: number, usedValue: number): RunFailure {
  const used = formatUsed(key, usedValue);
  return { error: childBudgetExhausted(key, limit, used), errorCode: 'childBudgetExhausted', errorParams: { key, limit, used } };
}

/** The measured value as the message shows it: whole tokens, cents and seconds to 2 and 1 places. */
export function formatUsed(key: ChildLimitKey, value: number): string {
  if (key === 'max_child_tokens') return String(Math.round(value));
  if (key === 'max_child_cost_cents') return value.toFixed(2);
  return value.toFixed(1);
}

const smaller = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

/** The limits a child running as `agent` gets from the config: per key, the smaller of the
 * [delegation] value and the agent's own. */
export function configuredLimits(delegation: DelegationConfig, agent: AgentConfig | undefined): ChildLimits {
  const out: ChildLimits = {};
  for (const key of CHILD_LIMIT_KEYS) {
    const v = smaller(delegation[key], agent?.[key]);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** Per key, the smaller of two sets of limits (absent = no limit). */
export function narrowLimits(a: ChildLimits, b: ChildLimits): ChildLimits {
  const out: ChildLimits = {};
  for (const key of CHILD_LIMIT_KEYS) {
    const v = smaller(a[key], b[key]);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** Active time, as runDisplay counts it: from start to end (or now), minus paused time. */
function activeSecs(run: Run | undefined, now: number): number {
  if (!run || run.startedAt === undefined) return 0;
  const end = run.endedAt ?? now;
  const pausedNow = run.pausedAt !== undefined && run.endedAt === undefined ? Math.max(0, now - run.pausedAt) : 0;
  return Math.max(0, end - run.startedAt - run.pausedMs - pausedNow) / 1000;
}

interface Entry {
  runId: string;
  limits: ChildLimits;
  /** The nearest child above (a root has no entry): its subtree includes this one. */
  parent?: Entry;
  tokens: number;
  costCents: number;
  /** Stopped (by a limit) or ended: spends no more, trips no more. */
  done: boolean;
  /** The run's active-time timer and its full length: what it has counted is the run's
   * active time (pauses and waits for the operator left out). */
  timer?: { timer: PausableTimer; totalMs: number };
}

export interface ChildBudgetDeps {
  /** The run record (for active time). */
  run(runId: string): Run | undefined;
  /** A limit was reached: stop the run, ending it failed with `failure`. */
  exhausted(runId: string, failure: RunFailure): void;
}

export class ChildBudgets {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly deps: ChildBudgetDeps) {}

  /** Opens a child's budget: its configured limits, narrowed to what its caller (the
   * nearest child above) has left. Returns the limits in force (empty: none). */
  open(runId: string, parentRunId: string | undefined, configured: ChildLimits, now = Date.now()): ChildLimits {
    const parent = parentRunId !== undefined ? this.entries.get(parentRunId) : undefined;
    const limits = parent ? narrowLimits(configured, this.remaining(parent, now)) : { ...configured };
    this.entries.set(runId, { runId, limits, parent, tokens: 0, costCents: 0, done: false });
    return limits;
  }

  /** What an entry has left on each of its limits. */
  private remaining(e: Entry, now: number): ChildLimits {
    const out: ChildLimits = {};
    const l = e.limits;
    // Rounded down (cents to 0.01, seconds to 0.1) so the limit reads cleanly in messages.
    if (l.max_child_tokens !== undefined) out.max_child_tokens = Math.max(0, l.max_child_tokens - e.tokens);
    if (l.max_child_cost_cents !== undefined)
      out.max_child_cost_cents = Math.max(0, Math.floor((l.max_child_cost_cents - e.costCents) * 100) / 100);
    if (l.max_child_seconds !== undefined) {
      const used = e.timer ? (e.timer.totalMs - e.timer.timer.remaining) / 1000 : activeSecs(this.deps.run(e.runId), now);
      out.max_child_seconds = Math.max(0, Math.floor((l.max_child_seconds - used) * 10) / 10);
    }
    return out;
  }

  limitsOf(runId: string): ChildLimits | undefined {
    return this.entries.get(runId)?.limits;
  }

  /** A model call of `runId` was paid for: counts against it and every child above it; the
   * first (innermost) one that reaches a limit is stopped. Roots have no entry. */
  recordUsage(runId: string, tokens: number, costUsd: number): void {
    for (let e = this.entries.get(runId); e; e = e.parent) {
      if (e.done) continue;
      e.tokens += tokens;
      e.costCents += costUsd * 100;
      const l = e.limits;
      if (l.max_child_tokens !== undefined && e.tokens >= l.max_child_tokens) {
        this.trip(e, 'max_child_tokens', l.max_child_tokens, e.tokens);
      } else if (l.max_child_cost_cents !== undefined && e.costCents >= l.max_child_cost_cents) {
        this.trip(e, 'max_child_cost_cents', l.max_child_cost_cents, e.costCents);
      }
    }
  }

  private trip(e: Entry, key: ChildLimitKey, limit: number, used: number): void {
    e.done = true;
    this.deps.exhausted(e.runId, budgetFailure(key, limit, used));
  }

  /** The child's active-time timer: whichever is shorter of its run timeout (`onTimeout`)
   * and its max_child_seconds (a budget stop). Undefined when neither applies. */
  timer(runId: string, timeoutSecs: number | undefined, onTimeout: () => void): PausableTimer | undefined {
    const e = this.entries.get(runId);
    const secs = e?.limits.max_child_seconds;
    const timeout = timeoutSecs !== undefined && timeoutSecs > 0 ? timeoutSecs : undefined;
    if (e && secs !== undefined && (timeout === undefined || secs < timeout)) {
      // When it fires the run has been active exactly `secs`: that is the measured value.
      const timer = new PausableTimer(secs * 1000, () => {
        if (e.done) return;
        e.done = true;
        this.deps.exhausted(runId, budgetFailure('max_child_seconds', secs, secs));
      });
      e.timer = { timer, totalMs: secs * 1000 };
      return timer;
    }
    if (timeout === undefined) return undefined;
    const timer = new PausableTimer(timeout * 1000, onTimeout);
    if (e) e.timer = { timer, totalMs: timeout * 1000 };
    return timer;
  }

  /** The child ended: it spends no more; its entry stays reachable from its descendants
   * (a steered or background one may outlive it) but is dropped from the index. */
  close(runId: string): void {
    const e = this.entries.get(runId);
    if (!e) return;
    e.done = true;
    this.entries.delete(runId);
  }
}
