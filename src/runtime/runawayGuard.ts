// The runaway guard: watches each root's tree against [delegation.runaway] and, when a
// threshold trips, acts at once (on_trip), raises a banner and leaves the choice to the
// user — resume or kill. Pausing keeps every run's state, so no work is lost.
import type { RunawayConfig } from '../config/types.js';
import { t } from '../i18n/index.js';
import type { Supervisor } from './supervisor.js';
import type { KilledBy } from '../model/run.js';
import { isTerminal, type Run, type RuntimeState } from './types.js';

export type Threshold = 'max_tree_size' | 'max_spawns_per_minute' | 'max_tree_tokens' | 'max_tree_cost_cents';

export interface TreeMeasure {
  size: number;
  spawnsLastMinute: number;
  tokens: number;
  costCents: number;
  live: number;
}

export function measureTree(s: RuntimeState, rootRunId: string, now = Date.now()): TreeMeasure {
  const m: TreeMeasure = { size: 0, spawnsLastMinute: 0, tokens: 0, costCents: 0, live: 0 };
  for (const id of s.runOrder) {
    const r = s.runs.get(id);
    if (!r || r.rootRunId !== rootRunId) continue;
    m.size++;
    m.tokens += r.tokensIn + r.tokensOut;
    m.costCents += r.costUsd * 100;
    if (r.kind !== 'root' && now - r.createdAt <= 60_000) m.spawnsLastMinute++;
    if (!isTerminal(r.status)) m.live++;
  }
  return m;
}

/** What a threshold is armed at for one tree: the configured limit until the user has
 * answered a trip, then the next multiple of it past what the tree measured. */
export type ArmedLimits = ReadonlyMap<Threshold, number>;

/** The next limit after a trip at `measured`: the first multiple of `base` above it, so a
 * tree that keeps growing after a resume trips again instead of running unwatched. */
export function rearmedLimit(base: number, measured: number): number {
  if (base <= 0) return measured;
  return base * (Math.floor(measured / base) + 1);
}

/** The first threshold the tree is over, or undefined. */
export function firstTrip(
  cfg: RunawayConfig,
  m: TreeMeasure,
  armed: ArmedLimits = new Map(),
): { threshold: Threshold; limit: number; base: number; measured: number } | undefined {
  const checks: Array<[Threshold, number | undefined, number]> = [
    ['max_tree_size', cfg.max_tree_size, m.size],
    ['max_spawns_per_minute', cfg.max_spawns_per_minute, m.spawnsLastMinute],
    ['max_tree_tokens', cfg.max_tree_tokens, m.tokens],
    ['max_tree_cost_cents', cfg.max_tree_cost_cents, Math.round(m.costCents * 100) / 100],
  ];
  for (const [threshold, base, measured] of checks) {
    if (base === undefined) continue;
    const limit = armed.get(threshold) ?? base;
    if (measured > limit) return { threshold, limit, base, measured };
  }
  return undefined;
}

export class RunawayGuard {
  /** Per tree, thresholds re-armed above their configured limit after an answered trip. */
  private armed = new Map<string, Map<Threshold, number>>();
  private scheduled = false;
  private pausedSpawningByGuard = false;
  private unsubscribe: () => void;

  constructor(
    private readonly sup: Supervisor,
    private readonly cfg: RunawayConfig,
    private readonly banner: (level: 'warn' | 'info', text: string) => void,
    /** False in headless mode: nobody can answer a trip, so a paused tree would wait forever. */
    private readonly hasOperator = true,
  ) {
    const enabled = [cfg.max_tree_size, cfg.max_spawns_per_minute, cfg.max_tree_tokens, cfg.max_tree_cost_cents].some(
      (v) => v !== undefined,
    );
    if (!enabled) {
      this.unsubscribe = () => {};
      return;
    }
    const unsubStore = sup.store.subscribe((s, prev) => this.onChange(s, prev));
    const onCreated = (run: Run) => {
      if (run.kind !== 'root') this.checkAll();
    };
    const unsubCreated = sup.onRunCreated(onCreated);
    this.unsubscribe = () => {
      unsubStore();
      unsubCreated();
    };
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** Checks coalesce to once per tick: streaming updates many times a second. */
  private onChange(s: RuntimeState, prev: RuntimeState): void {
    if (s.runs === prev.runs || this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.checkAll();
    });
  }

  /** Evaluates every tree that still has live runs. Exposed for tests and the supervisor. */
  checkAll(now = Date.now()): void {
    const s = this.sup.store.getState();
    if (s.controls.runaway.tripped) return;
    const roots = new Set<string>();
    for (const id of s.runOrder) {
      const r = s.runs.get(id);
      if (r && !isTerminal(r.status)) roots.add(r.rootRunId);
    }
    for (const rootRunId of roots) {
      const trip = firstTrip(this.cfg, measureTree(s, rootRunId, now), this.armed.get(rootRunId));
      if (trip) {
        this.trip(rootRunId, trip.threshold, trip.limit, trip.base, trip.measured);
        return;
      }
    }
  }

  private trip(rootRunId: string, threshold: Threshold, limit: number, base: number, measured: number): void {
    const action = this.cfg.on_trip;
    this.sup.store.setState((s) => ({
      controls: { ...s.controls, runaway: { tripped: true, threshold, limit, measured, rootRunId, action, at: Date.now() } },
    }));
    if (action === 'pause_spawning') {
      if (!this.sup.isSpawnPaused) this.pausedSpawningByGuard = true;
      this.sup.setSpawnPaused(true);
    } else if (action === 'pause_tree') {
      this.sup.pause(rootRunId);
    } else {
      // Killing alone would let the root spawn a fresh batch at once: hold spawning until
      // the user answers.
      if (!this.sup.isSpawnPaused) this.pausedSpawningByGuard = true;
      this.sup.setSpawnPaused(true);
      this.killChildren(rootRunId, 'killedByGuard');
    }
    const actionText = t(`runtime:runaway.action.${action}`);
    this.banner(
      'warn',
      limit === base
        ? t('runtime:runaway.tripped', { threshold, limit, measured, action: actionText })
        : t('runtime:runaway.trippedAgain', { threshold, limit, base, measured, action: actionText }),
    );
    if (!this.hasOperator) {
      // Settle it now, the way the user most likely would have: stop the runaway children,
      // refuse new spawns for the rest of this (single, headless) turn, and let the root
      // finish with what it has.
      this.resolve('kill', 'guard');
      this.sup.setSpawnPaused(true);
      this.banner('warn', t('runtime:runaway.noOperator'));
    }
  }

  private killChildren(rootRunId: string, killedBy?: KilledBy): number {
    const s = this.sup.store.getState();
    let n = 0;
    for (const id of s.runOrder) {
      const r: Run | undefined = s.runs.get(id);
      if (r && r.rootRunId === rootRunId && r.kind !== 'root' && !isTerminal(r.status) && r.parentRunId === rootRunId) {
        n += 1 + this.sup.kill(r.id, killedBy).descendants;
      }
    }
    return n;
  }

  /** The user's answer to a trip: resume or kill every child of the tree. Either way the
   * threshold re-arms for that tree at the next multiple of its limit past what was
   * measured, and the notice says where. `by: 'guard'`: the guard settles it itself
   * (headless, no operator); its kills say so, and the no-operator banner speaks for it. */
  resolve(choice: 'resume' | 'kill', by: 'user' | 'guard' = 'user'): boolean {
    const state = this.sup.store.getState().controls.runaway;
    if (!state.tripped || !state.rootRunId) return false;
    const rootRunId = state.rootRunId;
    const threshold = state.threshold as Threshold;
    const base = this.cfg[threshold] ?? state.limit ?? 0;
    const next = rearmedLimit(base, Math.max(state.measured ?? 0, state.limit ?? 0));
    const armed = this.armed.get(rootRunId) ?? new Map<Threshold, number>();
    armed.set(threshold, next);
    this.armed.set(rootRunId, armed);
    if (choice === 'resume') {
      if (state.action === 'pause_tree') this.sup.resume(rootRunId);
      if (this.pausedSpawningByGuard) this.sup.setSpawnPaused(false);
    } else {
      // Kill first: resuming before the kill would let children take one more step.
      this.killChildren(rootRunId, by === 'guard' ? 'killedByGuard' : undefined);
      if (state.action === 'pause_tree') this.sup.resume(rootRunId);
      if (this.pausedSpawningByGuard) this.sup.setSpawnPaused(false);
    }
    this.pausedSpawningByGuard = false;
    this.sup.store.setState((s) => ({ controls: { ...s.controls, runaway: { tripped: false } } }));
    // A guard's own kill (headless) is announced by the no-operator banner instead.
    if (by === 'user') {
      const answered = t(choice === 'resume' ? 'runtime:runaway.resumed' : 'runtime:runaway.killed');
      this.banner('info', `${answered} ${t('runtime:runaway.rearmed', { threshold, next })}`);
    }
    return true;
  }
}
