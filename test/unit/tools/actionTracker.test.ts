import { describe, it, expect } from 'vitest';
import { createActionTracker, narrowedTracker } from '../../../src/tools/actionTracker.js';
import { risk } from './helpers.js';

function clock(start = Date.UTC(2025, 0, 1, 12)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const MIN = 60_000;

describe('createActionTracker', () => {
  it('never refuses when max_actions_per_hour is 0', () => {
    const tracker = createActionTracker(risk({ max_actions_per_hour: 0 }));
    for (let i = 0; i < 10_000; i++) expect(tracker.recordAction()).toBeUndefined();
  });

  it('refuses past the hourly limit, naming the limit and the knob, and frees slots as they age out', () => {
    const c = clock();
    const tracker = createActionTracker(risk({ name: 'dev', max_actions_per_hour: 3 }), c.now);
    expect(tracker.recordAction()).toBeUndefined();
    c.advance(10 * MIN);
    expect(tracker.recordAction()).toBeUndefined();
    expect(tracker.recordAction()).toBeUndefined();
    const refusal = tracker.recordAction();
    expect(refusal).toContain('max_actions_per_hour = 3');
    expect(refusal).toContain("risk profile 'dev'");
    expect(refusal).toContain('[risk_profiles.dev]');
    expect(refusal).toContain('about 50 min');
    // A refused action does not count: once the first one is an hour old, one slot frees.
    c.advance(50 * MIN);
    expect(tracker.recordAction()).toBeUndefined();
    expect(tracker.recordAction()).toBeDefined();
  });

  it('tracks spend per UTC day against max_cost_per_day_cents', () => {
    const c = clock(Date.UTC(2025, 0, 1, 23, 0));
    const tracker = createActionTracker(risk({ name: 'dev', max_cost_per_day_cents: 50 }), c.now);
    tracker.recordCostUsd(0.3);
    expect(tracker.costExceeded()).toBeUndefined();
    tracker.recordCostUsd(0.2);
    const refusal = tracker.costExceeded();
    expect(refusal).toContain('max_cost_per_day_cents = 50');
    expect(refusal).toContain('[risk_profiles.dev]');
    c.advance(61 * MIN); // past midnight UTC
    expect(tracker.costExceeded()).toBeUndefined();
  });

  it('ignores nonsense costs and never refuses with no cost limit', () => {
    const tracker = createActionTracker(risk({ max_cost_per_day_cents: 1 }));
    tracker.recordCostUsd(Number.NaN);
    tracker.recordCostUsd(-5);
    expect(tracker.costExceeded()).toBeUndefined();
    const unlimited = createActionTracker(risk({ max_cost_per_day_cents: 0 }));
    unlimited.recordCostUsd(1e6);
    expect(unlimited.costExceeded()).toBeUndefined();
  });
});

describe('narrowedTracker', () => {
  it("counts a child's actions against the parent's hourly limit (one shared bucket)", () => {
    const c = clock();
    const parent = createActionTracker(risk({ max_actions_per_hour: 4 }), c.now);
    const childA = narrowedTracker(parent, {}, c.now);
    const childB = narrowedTracker(parent, {}, c.now);
    expect(parent.recordAction()).toBeUndefined();
    expect(childA.recordAction()).toBeUndefined();
    expect(childB.recordAction()).toBeUndefined();
    expect(childA.recordAction()).toBeUndefined();
    // Four actions across the tree: everyone is now refused, the parent included.
    expect(childB.recordAction()).toContain('max_actions_per_hour = 4');
    expect(parent.recordAction()).toContain('max_actions_per_hour = 4');
  });

  it('enforces a tighter child limit on top, without using parent slots for refused calls', () => {
    const c = clock();
    const parent = createActionTracker(risk({ max_actions_per_hour: 5 }), c.now);
    const child = narrowedTracker(parent, { max_actions_per_hour: 2 }, c.now);
    expect(child.recordAction()).toBeUndefined();
    expect(child.recordAction()).toBeUndefined();
    const refusal = child.recordAction();
    expect(refusal).toContain('max_actions_per_hour = 2 (subagent override)');
    // The parent saw two actions, so three remain for it.
    expect(parent.recordAction()).toBeUndefined();
    expect(parent.recordAction()).toBeUndefined();
    expect(parent.recordAction()).toBeUndefined();
    expect(parent.recordAction()).toBeDefined();
  });

  it("shares spend with the parent and applies the child's own cost ceiling", () => {
    const c = clock();
    const parent = createActionTracker(risk({ max_cost_per_day_cents: 100 }), c.now);
    const child = narrowedTracker(parent, { max_cost_per_day_cents: 10 }, c.now);
    child.recordCostUsd(0.1);
    expect(child.costExceeded()).toContain('max_cost_per_day_cents = 10');
    expect(parent.costExceeded()).toBeUndefined();
    parent.recordCostUsd(0.9);
    expect(parent.costExceeded()).toContain('max_cost_per_day_cents = 100');
    const sibling = narrowedTracker(parent, {}, c.now);
    expect(sibling.costExceeded()).toContain('max_cost_per_day_cents = 100');
  });
});
