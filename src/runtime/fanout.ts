// Confirming large fan-outs ([delegation] confirm_fanout_over = N; absent or 0 = off).
// When one model turn asks to start more than N children (spawn_subagent calls plus every
// delegate target), the operator sees the planned children (task, agent, model) and an
// estimate of what their prompts cost, and approves all, lets only the first K start, or
// denies. Headless there is no operator: --yes approves, otherwise everything is declined
// and a warning says so. A declined call gets FANOUT_DECLINED as its failed tool result.
import { randomUUID } from 'node:crypto';
import type { ArborConfig, Pricing } from '../config/types.js';
import { t } from '../i18n/index.js';
import type { PendingFanout, PlannedChild } from '../model/controls.js';
import { declinedCalls, startedFor } from '../model/fanoutPlan.js';
import type { ToolCallRequest } from '../model/messages.js';
import { providerLabel } from '../providers/label.js';
import { parseArgs as parseDelegateArgs } from '../tools/delegate/args.js';
import { DELEGATE } from '../tools/delegate/strings.js';
import type { ToolRegistry } from '../tools/registry.js';
import { SPAWN_SUBAGENT } from '../tools/spawnSubagent.js';
import type { ToolCaller } from '../tools/types.js';
import { neutralize } from '../text/untrusted.js';
import { setRunStatus, type RuntimeStore } from './store.js';
import type { PausableTimer } from './pausableTimer.js';
import type { PauseGate } from './pauseGate.js';

/** Rough tokens of a prompt: ~4 characters a token, as providers count English text. */
export const estimateTokens = (chars: number) => Math.ceil(chars / 4);

/** The input cost of a prompt of `tokens` at `pricing`; undefined when not priced. */
/** Unpriced is unknown, except the built-in offline model, which is free (the cost shown
 * as $0.00 everywhere else): its forecast is 0, not "unknown". */
export function promptCostUsd(pricing: Pricing | undefined, tokens: number): number | undefined {
  return pricing ? (tokens * pricing.input_per_mtok) / 1_000_000 : undefined;
}

const EMPTY: ReadonlySet<string> = new Set();

export interface FanoutRequest {
  runId: string;
  caller: ToolCaller;
  tools: ToolRegistry;
  calls: readonly ToolCallRequest[];
  signal: AbortSignal;
}

/** The children these calls would start, in call order; each names the call it belongs to. */
export function plannedChildren(config: ArborConfig, req: Pick<FanoutRequest, 'caller' | 'tools' | 'calls'>): PlannedChild[] {
  const out: PlannedChild[] = [];
  const describe = (callId: string, tool: PlannedChild['tool'], alias: string, task: string) => {
    const agent = config.agents[alias];
    const provider = agent ? config.providers[agent.provider] : undefined;
    const tokens = estimateTokens((agent?.system_prompt.length ?? 0) + task.length);
    out.push({
      callId,
      tool,
      agent: alias,
      model: provider ? providerLabel(provider) : '?',
      task,
      inputTokens: tokens,
      costUsd: provider?.type === 'offline' && !provider.pricing ? 0 : promptCostUsd(provider?.pricing, tokens),
    });
  };
  for (const call of req.calls) {
    if (!req.tools.has(call.name)) continue;
    if (call.name === SPAWN_SUBAGENT) {
      const prompt = (call.args as { prompt?: unknown } | undefined)?.prompt;
      describe(call.id, 'spawn_subagent', req.caller.alias, typeof prompt === 'string' ? prompt : '');
    } else if (call.name === DELEGATE) {
      const parsed = parseDelegateArgs(call.args);
      if (parsed.ok && parsed.args.action === 'delegate') {
        for (const target of parsed.args.targets) describe(call.id, 'delegate', target, parsed.args.task);
      }
    }
  }
  return out;
}

export interface FanoutBrokerOptions {
  config: ArborConfig;
  interactive: boolean;
  autoYes: boolean;
  /** A line for the transcript (headless: stderr). */
  notice(level: 'info' | 'warn' | 'error', text: string): void;
}

export class FanoutBroker {
  private readonly pending = new Map<string, (count: number) => void>();

  constructor(
    private readonly store: RuntimeStore,
    private readonly opts: FanoutBrokerOptions,
  ) {}

  get threshold(): number {
    return this.opts.config.delegation.confirm_fanout_over ?? 0;
  }

  /** The ids of the calls that must not run (empty: all may). */
  async review(req: FanoutRequest): Promise<ReadonlySet<string>> {
    const limit = this.threshold;
    if (limit <= 0) return EMPTY;
    const children = plannedChildren(this.opts.config, req);
    if (children.length <= limit) return EMPTY;
    if (!this.opts.interactive) {
      if (this.opts.autoYes) return EMPTY;
      this.opts.notice('warn', t('runtime:fanout.headlessDenied', { count: children.length, limit }));
      return new Set(children.map((c) => c.callId));
    }
    const count = await this.ask(req, children, limit);
    if (count < children.length) {
      this.opts.notice('info', t('runtime:fanout.answered', { started: startedFor(children, count), count: children.length }));
    }
    return count >= children.length ? EMPTY : declinedCalls(children, count);
  }

  /** The operator's answer: how many children may start (0 = none, all = approve). */
  answer(id: string, count: number): void {
    this.pending.get(id)?.(count);
  }

  private ask(req: FanoutRequest, children: PlannedChild[], limit: number): Promise<number> {
    const id = randomUUID();
    const priced = children.filter((c) => c.costUsd !== undefined);
    const entry: PendingFanout = {
      id,
      runId: req.runId,
      limit,
      // Tasks are model text: shown neutralised.
      children: children.map((c) => ({ ...c, task: neutralize(c.task), agent: neutralize(c.agent) })),
      estimatedUsd: priced.length ? priced.reduce((sum, c) => sum + (c.costUsd ?? 0), 0) : undefined,
      unpriced: children.length - priced.length,
      createdAt: Date.now(),
    };
    this.store.setState((s) => ({ controls: { ...s.controls, fanouts: [...(s.controls.fanouts ?? []), entry] } }));
    const before = this.store.getState().runs.get(req.runId)?.status;
    if (before === 'running') setRunStatus(this.store, req.runId, 'awaiting_approval');
    return new Promise<number>((resolve) => {
      const finish = (count: number) => {
        this.pending.delete(id);
        req.signal.removeEventListener('abort', onAbort);
        this.store.setState((s) => ({ controls: { ...s.controls, fanouts: (s.controls.fanouts ?? []).filter((f) => f.id !== id) } }));
        if (this.store.getState().runs.get(req.runId)?.status === 'awaiting_approval') setRunStatus(this.store, req.runId, 'running');
        resolve(Math.max(0, Math.min(children.length, Math.floor(count))));
      };
      // A run stopped while its question waits: nothing starts.
      const onAbort = () => finish(0);
      this.pending.set(id, finish);
      if (req.signal.aborted) onAbort();
      else req.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** The loop's fan-out review for one run: the run's active-time clock stops while the
 * operator decides (waiting on a person is not the child's time). */
export function fanoutReviewFor(
  broker: FanoutBroker | undefined,
  run: { id: string },
  caller: ToolCaller,
  tools: ToolRegistry,
  handle: { timer?: PausableTimer; gate: PauseGate; controller: AbortController },
): ((calls: readonly ToolCallRequest[]) => Promise<ReadonlySet<string>>) | undefined {
  if (!broker || broker.threshold <= 0) return undefined;
  return async (calls) => {
    const timer = handle.timer;
    timer?.pause();
    try {
      return await broker.review({ runId: run.id, caller, tools, calls, signal: handle.controller.signal });
    } finally {
      if (!handle.gate.paused) timer?.resume();
    }
  };
}
