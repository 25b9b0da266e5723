// Quota-aware pausing: when a provider refuses a call with a limit that lifts later than the
// retry wrapper waits, or says its quota or plan is used up (providers' QuotaError), the run
// is not failed. It is paused at that step boundary with the ordinary pause machinery (its
// gate, its `paused` status, its stopped timeout clock), gives its concurrency slot up, and
// waits. One tracker per runtime keeps one pause per provider with one timer; when the limit
// lifts, the held runs take a slot again oldest first through the lane ([delegation]
// max_concurrent) and resume, and the refused call is made again (runtime/quotaWait.ts).
// The operator can resume or kill a held run earlier, as any paused run. While a provider is
// paused, a run about to call it is held before it asks (no request wasted on a known no).
import { t } from '../i18n/index.js';
import { clockTime, waitText, type QuotaPause } from '../model/quota.js';
import { isQuotaError } from '../providers/providerError.js';
import { providerLabel } from '../providers/label.js';
import { MAX_RESET_HORIZON_MS } from '../providers/rateLimits.js';
import type { ModelProvider } from '../providers/types.js';
import { neutralize } from '../text/untrusted.js';
import { startTimer, type Timer } from '../timers/timer.js';
import type { ConcurrencyLane } from './concurrencyLane.js';
import type { RuntimeStore } from './store.js';

/** What the tracker needs of the supervisor. */
export interface QuotaControl {
  readonly store: RuntimeStore;
  readonly lane: ConcurrencyLane;
  pause(runId: string): number;
  resume(runId: string): number;
}

/** The loop's view of the tracker (runtime/quotaWait.ts). */
export interface QuotaWaiter {
  /** Before a model call: holds the run while its provider is paused. True when held. */
  holdIfBlocked(runId: string, providerName: string, signal: AbortSignal): boolean;
  /** A model call failed: true when the run is now held and the same call should be made
   * again once it resumes; false when the error is not a quota limit or nothing may wait. */
  hold(runId: string, provider: ModelProvider, err: unknown, signal: AbortSignal): boolean;
  /** The run's gate opened: takes back the lane slot it gave up. Rejects if the run is
   * stopped while it waits for one. */
  readmit(runId: string, signal: AbortSignal): Promise<void>;
  /** The run no longer waits (resumed, or stopped). */
  leave(runId: string): void;
}

export interface QuotaTrackerOptions {
  /** Interactive sessions and `-p --wait-on-quota`; otherwise a quota limit fails the run. */
  canWait: boolean;
  /** Someone can resume or kill a held run earlier (the chat): the notice says how. */
  operator?: boolean;
  /** A line in the chat (and the session file; headless: stderr for warnings). */
  notice(level: 'info' | 'warn', text: string): void;
  /** The first wait when the server names no reset time; doubles per such refusal in a row. */
  probeMs?: number;
  maxProbeMs?: number;
}

export const DEFAULT_PROBE_MS = 60_000;
export const MAX_PROBE_MS = 15 * 60_000;

interface Held {
  runId: string;
  provider: string;
  signal: AbortSignal;
  /** Gave its lane slot up while held, and has not taken one back yet. */
  slotGivenUp: boolean;
  /** The lane wait in flight for it, once its pause lifted (or it was resumed early). */
  admitting?: Promise<void>;
}

interface ProviderPause {
  provider: string;
  label: string;
  reason: QuotaPause['reason'];
  resetAt: number;
  resetKnown: boolean;
  /** The server named a reset arbor will not wait for: the probe schedule, saying why. */
  farReset: boolean;
  runs: Set<string>;
  timer?: Timer;
}

export class QuotaTracker implements QuotaWaiter {
  private control?: QuotaControl;
  private readonly pauses = new Map<string, ProviderPause>();
  private readonly held = new Map<string, Held>();
  /** Refusals with no reset time in a row, per provider: how long the next probe waits. */
  private readonly unknownStreak = new Map<string, number>();
  private hintShown = false;

  constructor(private readonly opts: QuotaTrackerOptions) {}

  /** Wired after the supervisor exists (it takes the tracker in its deps). */
  attach(control: QuotaControl): void {
    this.control = control;
  }

  holdIfBlocked(runId: string, providerName: string, signal: AbortSignal): boolean {
    const pause = this.pauses.get(providerName);
    if (!pause || !this.control || !this.opts.canWait || signal.aborted) return false;
    this.enter(pause, runId, signal);
    this.publish();
    return true;
  }

  hold(runId: string, provider: ModelProvider, err: unknown, signal: AbortSignal): boolean {
    if (!isQuotaError(err) || !this.control || signal.aborted) return false;
    if (!this.opts.canWait) {
      if (!this.hintShown) {
        this.hintShown = true;
        this.opts.notice('warn', t('runtime:quota.cannotWait'));
      }
      return false;
    }
    const now = Date.now();
    // Whatever a provider wrapper passed on, a reset that is not a time or lies past the
    // horizon is no reset time at all: waiting on it would sleep a month or, past Node's
    // timer limit, ask again at once.
    const usable = err.resetAt !== undefined && Number.isFinite(err.resetAt) && err.resetAt - now <= MAX_RESET_HORIZON_MS;
    let resetAt = usable ? err.resetAt : undefined;
    const resetKnown = resetAt !== undefined;
    const farReset = err.resetUnusable || (err.resetAt !== undefined && !usable);
    if (resetAt === undefined) {
      const streak = this.unknownStreak.get(provider.name) ?? 0;
      this.unknownStreak.set(provider.name, streak + 1);
      const probe = this.opts.probeMs ?? DEFAULT_PROBE_MS;
      resetAt = now + Math.min(probe * 2 ** streak, this.opts.maxProbeMs ?? MAX_PROBE_MS);
    } else {
      this.unknownStreak.delete(provider.name);
    }
    let pause = this.pauses.get(provider.name);
    const fresh = pause === undefined;
    if (!pause) {
      pause = {
        provider: provider.name,
        label: providerLabel(provider),
        reason: err.reason,
        resetAt,
        resetKnown,
        farReset,
        runs: new Set(),
      };
      this.pauses.set(provider.name, pause);
    } else if (resetAt > pause.resetAt) {
      // A later refusal knows of a later reset: everyone waits for that one.
      Object.assign(pause, { resetAt, resetKnown, reason: err.reason });
    }
    this.enter(pause, runId, signal);
    this.schedule(pause);
    if (fresh) this.opts.notice('warn', this.pausedText(pause, now));
    this.publish();
    return true;
  }

  async readmit(runId: string, signal: AbortSignal): Promise<void> {
    const h = this.held.get(runId);
    if (!h || !h.slotGivenUp || !this.control) return;
    h.admitting ??= this.control.lane.acquire(runId, signal, true).then(() => {
      h.slotGivenUp = false;
    });
    await h.admitting;
  }

  leave(runId: string): void {
    const h = this.held.get(runId);
    if (!h) return;
    this.held.delete(runId);
    const pause = this.pauses.get(h.provider);
    if (pause?.runs.delete(runId) && pause.runs.size === 0) {
      // Nobody waits on it any more (all resumed or stopped early): the next call asks.
      pause.timer?.clear();
      this.pauses.delete(h.provider);
    }
    this.publish();
  }

  dispose(): void {
    for (const pause of this.pauses.values()) pause.timer?.clear();
    this.pauses.clear();
    this.held.clear();
    this.publish();
  }

  /** Pauses the run (at its step boundary: the loop waits at its gate next) and gives its
   * lane slot up, so other work can run while it waits. */
  private enter(pause: ProviderPause, runId: string, signal: AbortSignal): void {
    const control = this.control!;
    pause.runs.add(runId);
    let slotGivenUp = this.held.get(runId)?.slotGivenUp ?? false;
    if (control.lane.holds(runId)) {
      control.lane.release(runId);
      slotGivenUp = true;
    }
    this.held.set(runId, { runId, provider: pause.provider, signal, slotGivenUp });
    control.pause(runId);
  }

  private schedule(pause: ProviderPause): void {
    pause.timer?.clear();
    // Ref'd on purpose: a headless run waiting on the limit keeps the process alive.
    pause.timer = startTimer(pause.resetAt - Date.now(), () => this.lift(pause.provider));
  }

  /** The limit has lifted: the held runs resume oldest first, each once it has a slot. */
  private lift(provider: string): void {
    const pause = this.pauses.get(provider);
    const control = this.control;
    if (!pause || !control) return;
    this.pauses.delete(provider);
    const order = control.store.getState().runOrder;
    const runs = [...pause.runs].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    this.opts.notice('info', t('runtime:quota.resumed', { provider: pause.provider, label: pause.label, count: runs.length }));
    for (const runId of runs) {
      const h = this.held.get(runId);
      if (!h) continue;
      // Someone paused its tree meanwhile (the operator, the runaway guard): that pause
      // stands, and resuming the tree lets it go on (readmit takes its slot back then).
      if (this.treePaused(runId)) continue;
      if (!h.slotGivenUp) {
        control.resume(runId);
        continue;
      }
      // Queued in this order ahead of children that never started: still oldest first.
      h.admitting = control.lane.acquire(runId, h.signal, true).then(() => {
        h.slotGivenUp = false;
      });
      h.admitting.then(
        // Unless it was resumed early meanwhile (and may be held again by now).
        () => {
          if (this.held.get(runId) === h) control.resume(runId);
        },
        () => {
          /* stopped while it waited for a slot: its own ending says so */
        },
      );
    }
    this.publish();
  }

  /** Whether an ancestor of the run is paused: a run making a model call has no live
   * children of its own waiting on it, so such a pause was asked for from outside. */
  private treePaused(runId: string): boolean {
    const runs = this.control!.store.getState().runs;
    for (let id = runs.get(runId)?.parentRunId; id; id = runs.get(id)?.parentRunId) {
      const status = runs.get(id)?.status;
      if (status === 'paused' || status === 'pausing') return true;
    }
    return false;
  }

  private pausedText(pause: ProviderPause, now: number): string {
    const args = { provider: pause.provider, label: pause.label, clock: clockTime(pause.resetAt), wait: waitText(pause.resetAt - now) };
    const text = !pause.resetKnown
      ? t(pause.farReset ? 'runtime:quota.pausedFarReset' : 'runtime:quota.pausedProbe', args)
      : t(pause.reason === 'exhausted' ? 'runtime:quota.pausedExhausted' : 'runtime:quota.paused', args);
    return this.opts.operator ? `${text} ${t('runtime:quota.operatorHint')}` : text;
  }

  private publish(): void {
    const control = this.control;
    if (!control) return;
    const order = control.store.getState().runOrder;
    const list: QuotaPause[] = [...this.pauses.values()]
      .filter((p) => p.runs.size > 0)
      .map((p) => ({
        provider: neutralize(p.provider),
        label: neutralize(p.label),
        reason: p.reason,
        resetAt: p.resetAt,
        resetKnown: p.resetKnown,
        runIds: [...p.runs].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
      }));
    const prev = control.store.getState().quotaPauses;
    if ((prev?.length ?? 0) === 0 && list.length === 0) return;
    control.store.setState({ quotaPauses: list });
  }
}
