// The agent loop: one agent's turn. Model call (streamed) → tool calls (in order, or
// concurrently with parallel_tools) → repeat, until a final answer or a limit.
// At every step boundary it honours its AbortSignal and its pause gate.
import { StreamedCalls, startsAsStreamed } from './streamedCalls.js';
import { randomUUID } from 'node:crypto';
import { t } from '../i18n/index.js';
import { estimateCostUsd } from '../providers/createProvider.js';
import { retryNoticeText } from '../providers/retry.js';
import { isAbortError, type ModelMessage, type ToolCallRequest } from '../providers/types.js';
import { replyCapBytes } from '../config/defaults.js';
import { budgetExhaustedMessage } from './executionBudget.js';
import { BudgetExhaustedError, RunAbortedError, type LoopSpec } from './loopSpec.js';
import { ReplyBuffer, REPLY_TRUNCATED_MARKER } from './replyBuffer.js';
import { formatBytes } from '../text/sizes.js';
import { ReasoningTrace } from './reasoningTrace.js';
import { callWithQuotaWait } from './quotaWait.js';
import { stepBoundary } from './stepBoundary.js';
import { recordResults, runToolCalls, stopStarted } from './stepCalls.js';
import { runToolCall, toolCard } from './toolCall.js';
import { addUsage, appendItem, patchRun, updateItem } from './store.js';

/** How often streamed text reaches the store: a frame's worth at a time (the UI draws at
 * most 30 frames a second, so more frequent updates would cost layout and never show). */
const TEXT_FLUSH_MS = 50;

export interface LoopResult {
  text: string;
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

/** What a failed loop says: provider errors and budget errors already carry their full,
 * secret-free message. */
export function describeLoopError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
