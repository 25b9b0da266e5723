// The agent loop: one agent's turn. Model call (streamed) → tool calls (in order, or
// concurrently with parallel_tools) → repeat, until a final answer or a limit.
// At every step boundary it honours its AbortSignal and its pause gate.
import { startInGroups } from './batchedStart.js';
import { StreamedCalls, startsAsStreamed } from './streamedCalls.js';
import { randomUUID } from 'node:crypto';
import type { ProviderConfig } from '../config/types.js';
import { t } from '../i18n/index.js';
import { estimateCostUsd } from '../providers/createProvider.js';
import { retryNoticeText } from '../providers/retry.js';
import { isAbortError, type ModelMessage, type ModelProvider, type ToolCallRequest } from '../providers/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ActionTracker, ToolCaller, ToolContext, ToolResult, ToolServices } from '../tools/types.js';
import type { ArborConfig } from '../config/types.js';
import { approvalPreview } from './approvalPreview.js';
import type { ApprovalBroker } from './approvals.js';
import type { ToolObservation, ToolObserver } from './ledger/book.js';
import { replyCapBytes } from '../config/defaults.js';
import { budgetExhaustedMessage, type ExecutionBudget } from './executionBudget.js';
import { FANOUT_DECLINED } from './fanoutDeclined.js';
import { ReplyBuffer, REPLY_TRUNCATED_MARKER } from './replyBuffer.js';
import { formatBytes } from '../text/sizes.js';
import type { PauseGate } from './pauseGate.js';
import { ReasoningTrace } from './reasoningTrace.js';
import type { QuotaWaiter } from './quotaPause.js';
import { callWithQuotaWait } from './quotaWait.js';
import { capDisplay } from '../text/displayCap.js';
import { addUsage, appendItem, capResult, patchRun, toolFinished, toolStarted, updateItem, type RuntimeStore } from './store.js';
import type { ToolTranscriptItem, TranscriptItem } from './types.js';

/** How often streamed text reaches the store: a frame's worth at a time (the UI draws at
 * most 30 frames a second, so more frequent updates would cost layout and never show). */
const TEXT_FLUSH_MS = 50;

export const DUPLICATE_SKIPPED = (tool: string) =>
  `Skipped: '${tool}' was already called with identical arguments in this turn; reuse that result.`;
export const UNKNOWN_TOOL = (tool: string, known: string[]) =>
  `Unknown tool '${tool}'. Available tools: ${known.length ? known.join(', ') : '(none)'}.`;
export const BAD_ARGUMENTS = (tool: string) =>
  `Tool '${tool}' received arguments that are not valid JSON; call it again with a JSON object.`;

export interface LoopHooks {
  /** An item reached its final form (for the session log). */
  onItemFinal?(runId: string, item: TranscriptItem): void;
  /** A message entered the run's model history (for the session log and restore). */
  onMessage?(runId: string, message: ModelMessage): void;
  onToolStarted?(runId: string, tool: string): void;
  onToolFinished?(runId: string, tool: string, success: boolean, ms: number): void;
  /** A provider retry: shown in the status bar. */
  onRetry?(runId: string, text: string | undefined): void;
  /** A model call's usage was recorded on the run (per-child budgets count it). */
  onUsage?(runId: string, tokensIn: number, tokensOut: number, costUsd: number): void;
}

export interface LoopSpec {
  runId: string;
  store: RuntimeStore;
  config: ArborConfig;
  provider: ModelProvider;
  providerConfig: ProviderConfig;
  systemPrompt: string;
  /** The run's own model history, appended in place. */
  history: ModelMessage[];
  tools: ToolRegistry;
  caller: ToolCaller;
  signal: AbortSignal;
  gate: PauseGate;
  budget?: { budget: ExecutionBudget; role: 'root' | 'child' };
  approvals: ApprovalBroker;
  isChild: boolean;
  tracker: ActionTracker;
  cwd: string;
  /** Handed to tools that create runs. */
  services: ToolServices | undefined;
  /** Steering messages waiting for the next step boundary. */
  takeSteering(): string[];
  /** True while steering is waiting: a final answer then gets one more step to read it. */
  hasSteering?(): boolean;
  hooks: LoopHooks;
  /** Model calls allowed in this turn (max_tool_iterations, or 1 for a non-agentic target). */
  maxIterations: number;
  /** Holds the run while its provider's rate or quota limit lasts (runtime/quotaPause.ts). */
  quota?: QuotaWaiter;
  /** Large fan-outs wait for the operator (runtime/fanout.ts): the ids of calls declined. */
  reviewFanout?(calls: readonly ToolCallRequest[]): Promise<ReadonlySet<string>>;
  /** The observed-effects ledger (runtime/ledger/): sees every call around its run. */
  observer?: ToolObserver;
}

export interface LoopResult {
  text: string;
}

export class RunAbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortError';
  }
}

export class BudgetExhaustedError extends Error {}

function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.keys(value as object)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/** Honours kill/stop and pause. Steering is delivered only before a model call: between an
 * assistant's tool calls and their results a user message would break the history. */
async function stepBoundary(spec: LoopSpec, deliverSteering: boolean): Promise<void> {
  if (spec.signal.aborted) throw new RunAbortedError();
  if (spec.gate.paused) {
    await spec.gate.wait(spec.signal);
    if (spec.signal.aborted) throw new RunAbortedError();
  }
  if (!deliverSteering) return;
  for (const text of spec.takeSteering()) {
    const msg: ModelMessage = { role: 'user', content: text };
    spec.history.push(msg);
    spec.hooks.onMessage?.(spec.runId, msg);
    const item = appendItem(spec.store, spec.runId, { id: randomUUID(), kind: 'user', text, at: Date.now() });
    spec.hooks.onItemFinal?.(spec.runId, item);
  }
}

/** Runs the loop to a final answer. Throws RunAbortedError when stopped, ProviderError on a
 * permanent model failure, BudgetExhaustedError when a child's budget view is spent. */
export async function runLoop(spec: LoopSpec): Promise<LoopResult> {
  const seen = new Set<string>();
  for (let iteration = 1; ; iteration++) {
    await stepBoundary(spec, true);
    // The last permitted iteration is tools-free, so the turn always ends with an answer.
    let toolsAllowed = iteration < spec.maxIterations;
    if (spec.budget) {
      if (spec.budget.role === 'root') {
        const r = spec.budget.budget.reserveRoot();
        if (r === 'exhausted') throw new BudgetExhaustedError(budgetExhaustedMessage(spec.budget.budget.limit));
        if (r === 'final') toolsAllowed = false;
      } else if (!spec.budget.budget.reserveChild()) {
        throw new BudgetExhaustedError(budgetExhaustedMessage(spec.budget.budget.limit));
      }
    }
    const { text, calls, streamed } = await callWithQuotaWait(
      spec,
      () => new RunAbortedError(),
      () => modelStep(spec, toolsAllowed, seen),
    );
    if (calls.length === 0 && spec.hasSteering?.() && iteration < spec.maxIterations) continue;
    if (calls.length === 0 || !toolsAllowed) return { text };
    try {
      await stepBoundary(spec, false);
    } catch (err) {
      // The reply (with every call) is in the history already: its calls get their results.
      const started = await stopStarted(streamed);
      if (started) recordResults(spec, started.calls, started.results);
      throw err;
    }
    await runToolCalls(spec, calls, seen, streamed);
  }
}

interface StepResult {
  text: string;
  calls: ToolCallRequest[];
  /** The calls, already started as the reply streamed them (a parallel batch only). */
  streamed?: StreamedCalls;
}

async function modelStep(spec: LoopSpec, toolsAllowed: boolean, seen: Set<string>): Promise<StepResult> {
  const messages: ModelMessage[] = [{ role: 'system', content: spec.systemPrompt }, ...spec.history];
  const tools = toolsAllowed ? spec.tools.specs(spec.caller, spec.config) : [];
  patchRun(spec.store, spec.runId, (r) => ({ iterations: r.iterations + 1 }));
  // A parallel batch starts each call as the reply hands it on whole (when nothing must see
  // the batch whole first: streamedCalls.ts); calls in order wait for the reply as before.
  const startEarly = toolsAllowed && startsAsStreamed(spec.config, spec.caller.runtime.parallel_tools, !!spec.reviewFanout);
  // Made at the reply's first call: most replies (every child's answer) have none.
  let streamed: StreamedCalls | undefined;
  const startCall = (call: ToolCallRequest) => {
    streamed ??= new StreamedCalls(spec.signal, (c, signal) => {
      const item = toolCard(spec, c);
      appendItem(spec.store, spec.runId, item);
      return runToolCall({ ...spec, signal }, c, item, seen);
    });
    streamed.add(call);
  };

  const itemId = randomUUID();
  const reply = new ReplyBuffer(replyCapBytes(spec.caller.runtime));
  const reasoning = new ReasoningTrace(replyCapBytes(spec.caller.runtime));
  let reasoningFlushed = 0;
  let text = '';
  let flushed = 0;
  let itemAdded = false;
  let timer: NodeJS.Timeout | undefined;
  const calls: ToolCallRequest[] = [];
  const flush = () => {
    timer = undefined;
    if (text.length === flushed && reasoning.version === reasoningFlushed) return;
    flushed = text.length;
    reasoningFlushed = reasoning.version;
    const thought = reasoning.fields();
    if (!itemAdded) {
      itemAdded = true;
      appendItem(spec.store, spec.runId, {
        id: itemId,
        kind: 'assistant',
        runId: spec.runId,
        text,
        at: Date.now(),
        streaming: true,
        ...thought,
      });
    } else {
      const snapshot = text;
      updateItem(spec.store, spec.runId, itemId, (it) => (it.kind === 'assistant' ? { ...it, text: snapshot, ...thought } : it));
    }
  };
  const finishItem = (interrupted: boolean) => {
    if (timer) clearTimeout(timer);
    flush();
    if (!itemAdded) return;
    // The item as the store keeps it (neutralised) is what the session file records.
    const final = updateItem(spec.store, spec.runId, itemId, (it) =>
      it.kind === 'assistant' ? { ...it, text, ...reasoning.fields(true), streaming: false, interrupted: interrupted || undefined } : it,
    );
    if (final) spec.hooks.onItemFinal?.(spec.runId, final);
    if (reply.truncated) {
      const note = appendItem(spec.store, spec.runId, {
        id: randomUUID(),
        kind: 'notice',
        level: 'warn',
        text: t('runtime:replyTruncated', {
          received: formatBytes(reply.receivedBytes),
          kept: formatBytes(reply.keptBytes),
          key: 'max_reply_kb',
        }),
        at: Date.now(),
      });
      spec.hooks.onItemFinal?.(spec.runId, note);
    }
  };
  // What the model reads back: the kept text, and where it was cut.
  const forHistory = () => (reply.truncated ? text + REPLY_TRUNCATED_MARKER(reply.keptBytes, reply.receivedBytes) : text);

  try {
    for await (const ev of spec.provider.stream({
      messages,
      tools,
      signal: spec.signal,
      temperature: spec.providerConfig.temperature,
      maxTokens: spec.providerConfig.max_tokens,
    })) {
      switch (ev.type) {
        case 'text':
          reply.append(ev.delta);
          text = reply.text;
          reasoning.answering();
          if (!timer) timer = setTimeout(flush, TEXT_FLUSH_MS);
          break;
        case 'reasoning':
          reasoning.delta(ev.delta);
          if (!timer) timer = setTimeout(flush, TEXT_FLUSH_MS);
          break;
        case 'reasoning_block':
          reasoning.block(ev.block);
          break;
        case 'tool_call':
          calls.push(ev.call);
          if (startEarly) {
            // The reply's text so far goes above the call's card.
            if (timer) clearTimeout(timer);
            flush();
            startCall(ev.call);
          }
          break;
        case 'usage': {
          reasoning.usage(ev.usage.reasoningTokens);
          const cost = estimateCostUsd(spec.providerConfig.pricing, ev.usage);
          addUsage(spec.store, spec.runId, ev.usage.inputTokens, ev.usage.outputTokens, cost);
          if (cost > 0) spec.tracker.recordCostUsd(cost);
          spec.hooks.onUsage?.(spec.runId, ev.usage.inputTokens, ev.usage.outputTokens, cost);
          break;
        }
        case 'retry':
          spec.hooks.onRetry?.(spec.runId, retryNoticeText(ev));
          break;
        case 'model':
          noteAnsweringModel(spec, ev.modelId);
          break;
        case 'finish':
          break;
      }
    }
  } catch (err) {
    finishItem(true);
    spec.hooks.onRetry?.(spec.runId, undefined);
    const started = await stopStarted(streamed);
    // Keep what the model already said, and what the calls it started did: the next turn's
    // context includes the partial reply and those calls with their results.
    if (text.trim() !== '' || started) {
      const partial: ModelMessage = {
        role: 'assistant',
        content: `${forHistory()}\n[interrupted]`,
        ...(started ? { toolCalls: started.calls } : {}),
      };
      spec.history.push(partial);
      spec.hooks.onMessage?.(spec.runId, partial);
      if (started) recordResults(spec, started.calls, started.results);
    }
    if (spec.signal.aborted || isAbortError(err)) throw new RunAbortedError();
    throw err;
  }
  spec.hooks.onRetry?.(spec.runId, undefined);
  finishItem(false);
  if (spec.signal.aborted) {
    const started = await stopStarted(streamed);
    if (started) {
      const stopped: ModelMessage = { role: 'assistant', content: forHistory(), toolCalls: started.calls };
      spec.history.push(stopped);
      spec.hooks.onMessage?.(spec.runId, stopped);
      recordResults(spec, started.calls, started.results);
    }
    throw new RunAbortedError();
  }

  const assistant: ModelMessage = {
    role: 'assistant',
    content: forHistory(),
    ...(calls.length && toolsAllowed ? { toolCalls: calls } : {}),
    ...reasoning.forHistory(),
  };
  spec.history.push(assistant);
  spec.hooks.onMessage?.(spec.runId, assistant);
  return { text, calls, streamed };
}

/** The card, the /agents row and the trace log show the model that answered, as the
 * provider's reply names it (the configured one until a reply says otherwise). */
function noteAnsweringModel(spec: LoopSpec, modelId: string): void {
  const model = `${spec.providerConfig.type}/${modelId.slice(0, 200)}`;
  if (spec.store.getState().runs.get(spec.runId)?.model !== model) patchRun(spec.store, spec.runId, { model });
}

function toolCard(spec: LoopSpec, call: ToolCallRequest): ToolTranscriptItem {
  return {
    id: randomUUID(),
    kind: 'tool',
    runId: spec.runId,
    callId: call.id,
    name: call.name,
    args: call.args,
    rawArgs: call.rawArgs,
    status: 'running',
    startedAt: Date.now(),
  };
}

/** Runs the step's calls (or collects the ones already started) and records their results
 * in call order. */
async function runToolCalls(spec: LoopSpec, calls: ToolCallRequest[], seen: Set<string>, streamed?: StreamedCalls): Promise<void> {
  const results = streamed ? await streamed.collect() : await runUnstarted(spec, calls, seen);
  recordResults(spec, calls, results);
  if (spec.signal.aborted) throw new RunAbortedError();
}

/** Stops the calls a reply started as it streamed; what they were and how each ended, when
 * there were any. */
async function stopStarted(streamed: StreamedCalls | undefined): Promise<{ calls: ToolCallRequest[]; results: ToolResult[] } | undefined> {
  if (!streamed) return undefined;
  const started = await streamed.cancel();
  return started.calls.length ? started : undefined;
}

/** Each call's result joins the history after the reply that asked for it, in call order. */
function recordResults(spec: LoopSpec, calls: ToolCallRequest[], results: ToolResult[]): void {
  for (let i = 0; i < calls.length; i++) {
    const r = results[i];
    const msg: ModelMessage = {
      role: 'tool',
      toolCallId: calls[i].id,
      toolName: calls[i].name,
      content: r.success ? r.output : (r.error ?? 'error'),
      isError: !r.success || undefined,
      ...(r.display ? { display: r.display } : {}),
    };
    spec.history.push(msg);
    spec.hooks.onMessage?.(spec.runId, msg);
  }
}

async function runUnstarted(spec: LoopSpec, calls: ToolCallRequest[], seen: Set<string>): Promise<ToolResult[]> {
  const items = calls.map((call) => toolCard(spec, call));
  // Cards of every call appear at once, in order, before any of them runs.
  for (const item of items) appendItem(spec.store, spec.runId, item);
  const declined = spec.reviewFanout ? await spec.reviewFanout(calls) : undefined;

  const results: ToolResult[] = new Array(calls.length);
  const runOne = async (i: number) => {
    results[i] = declined?.has(calls[i].id) ? declineCall(spec, items[i]) : await runToolCall(spec, calls[i], items[i], seen);
  };
  if (spec.caller.runtime.parallel_tools && calls.length > 1) {
    await startInGroups(calls.length, runOne);
  } else {
    for (let i = 0; i < calls.length; i++) {
      if (i > 0) await stepBoundary(spec, false);
      await runOne(i);
    }
  }
  return results;
}

/** A call the operator did not let start (fan-out confirmation). */
function declineCall(spec: LoopSpec, item: ToolTranscriptItem): ToolResult {
  const result: ToolResult = { success: false, output: '', error: FANOUT_DECLINED };
  const final = updateItem(spec.store, spec.runId, item.id, (it) =>
    it.kind === 'tool' ? { ...it, status: 'denied', result: FANOUT_DECLINED, endedAt: Date.now() } : it,
  );
  if (final) spec.hooks.onItemFinal?.(spec.runId, final);
  return result;
}

async function runToolCall(spec: LoopSpec, call: ToolCallRequest, item: ToolTranscriptItem, seen: Set<string>): Promise<ToolResult> {
  let ran: ToolObservation | undefined;
  let approval: string | undefined;
  const finish = async (status: ToolTranscriptItem['status'], full: ToolResult): Promise<ToolResult> => {
    const text = full.success ? full.output : (full.error ?? '');
    // The display is kept under the same caps as the text, on the item and in the history.
    const display = full.display ? capDisplay(full.display) : undefined;
    const result = display === full.display ? full : { ...full, display };
    const extra = await spec.observer?.after(call, status, result, ran, approval).catch(() => undefined);
    const final = updateItem(spec.store, spec.runId, item.id, (it) =>
      it.kind === 'tool' ? { ...it, status, result: capResult(text), ...(display ? { display } : {}), endedAt: Date.now(), ...extra } : it,
    );
    if (final) spec.hooks.onItemFinal?.(spec.runId, final);
    return result;
  };

  const tool = spec.tools.get(call.name);
  if (!tool) return finish('error', { success: false, output: '', error: UNKNOWN_TOOL(call.name, spec.tools.names()) });
  if (call.args === undefined || call.args === null || typeof call.args !== 'object') {
    return finish('error', { success: false, output: '', error: BAD_ARGUMENTS(call.name) });
  }
  if (!tool.duplicateExempt) {
    const key = `${call.name}\u0000${stableStringify(call.args)}`;
    if (seen.has(key)) return finish('skipped', { success: false, output: '', error: DUPLICATE_SKIPPED(call.name) });
    seen.add(key);
  }

  if (spec.gate.paused) await spec.gate.wait(spec.signal);
  if (spec.signal.aborted) return finish('error', { success: false, output: '', error: 'aborted' });

  const ctx: ToolContext = {
    runId: spec.runId,
    toolCallId: call.id,
    signal: spec.signal,
    caller: spec.caller,
    config: spec.config,
    cwd: spec.cwd,
    tracker: spec.tracker,
    services: spec.services,
  };
  const decision = await spec.approvals.decide({
    runId: spec.runId,
    callId: call.id,
    tool,
    args: call.args,
    risk: spec.caller.risk,
    ceilings: spec.caller.ceilings,
    isChild: spec.isChild,
    signal: spec.signal,
    ...(tool.preview ? { preview: () => approvalPreview(spec.store, tool, call.args, ctx) } : {}),
  });
  approval = decision.asked;
  // Stopped while its ask waited: nothing was answered, so the item does not say denied.
  if (spec.signal.aborted) return finish('error', { success: false, output: '', error: 'aborted' });
  if (!decision.allowed) return finish('denied', { success: false, output: '', error: decision.error });
  // Answered while the run was paused: the call runs once the run is resumed.
  if (spec.gate.paused) await spec.gate.wait(spec.signal);
  if (spec.signal.aborted) return finish('error', { success: false, output: '', error: 'aborted' });

  ran = (await spec.observer?.before(call, tool.name).catch(() => undefined)) ?? { startedAt: Date.now() };
  const startedAt = Date.now();
  toolStarted(spec.store, spec.runId, tool.name, startedAt);
  spec.hooks.onToolStarted?.(spec.runId, tool.name);
  let result: ToolResult;
  try {
    result = await tool.run(call.args, ctx);
  } catch (err) {
    result = { success: false, output: '', error: `Tool '${tool.name}' failed: ${(err as Error).message}` };
  }
  toolFinished(spec.store, spec.runId, tool.name, startedAt, result.success);
  spec.hooks.onToolFinished?.(spec.runId, tool.name, result.success, Date.now() - startedAt);
  return finish(result.success ? 'ok' : 'error', result);
}

/** What a failed loop says: provider errors and budget errors already carry their full,
 * secret-free message. */
export function describeLoopError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
