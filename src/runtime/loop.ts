// The agent loop: one agent's turn. Model call (streamed) → tool calls (in order, or
// concurrently with parallel_tools) → repeat, until a final answer or a limit.
// At every step boundary it honours its AbortSignal and its pause gate.
import { StreamedCalls, startsAsStreamed } from './streamedCalls.js';
import { isAbortError, type ModelMessage, type ToolCallRequest } from '../providers/types.js';
import { budgetExhaustedMessage } from './executionBudget.js';
import { BudgetExhaustedError, RunAbortedError, type LoopSpec } from './loopSpec.js';
import type { ReplyItem } from './replyItem.js';
import { ReplyStream } from './replyStream.js';
import { callWithQuotaWait } from './quotaWait.js';
import { stepBoundary } from './stepBoundary.js';
import { recordResults, runToolCalls, stopStarted, type StartedCalls } from './stepCalls.js';
import { runToolCall, toolCard } from './toolCall.js';
import { appendItem, patchRun } from './store.js';

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
  const reply = new ReplyStream(spec, startEarly ? startCall : undefined);

  try {
    for await (const ev of spec.provider.stream({
      messages,
      tools,
      signal: spec.signal,
      temperature: spec.providerConfig.temperature,
      maxTokens: spec.providerConfig.max_tokens,
    })) {
      reply.take(ev);
    }
  } catch (err) {
    reply.item.finish(true);
    spec.hooks.onRetry?.(spec.runId, undefined);
    keepInterrupted(spec, reply.item, await stopStarted(streamed));
    if (spec.signal.aborted || isAbortError(err)) throw new RunAbortedError();
    throw err;
  }
  spec.hooks.onRetry?.(spec.runId, undefined);
  reply.item.finish(false);
  if (spec.signal.aborted) {
    keepStopped(spec, reply.item, await stopStarted(streamed));
    throw new RunAbortedError();
  }

  const { calls } = reply;
  const assistant: ModelMessage = {
    role: 'assistant',
    content: reply.item.forHistory(),
    ...(calls.length && toolsAllowed ? { toolCalls: calls } : {}),
    ...reply.item.reasoning.forHistory(),
  };
  spec.history.push(assistant);
  spec.hooks.onMessage?.(spec.runId, assistant);
  return { text: reply.item.text, calls, streamed };
}

/** A reply that failed part-way: what the model already said, and what the calls it
 * started did, stay in the history, so the next turn's context includes them. */
function keepInterrupted(spec: LoopSpec, item: ReplyItem, started: StartedCalls | undefined): void {
  if (item.text.trim() === '' && !started) return;
  const partial: ModelMessage = {
    role: 'assistant',
    content: `${item.forHistory()}\n[interrupted]`,
    ...(started ? { toolCalls: started.calls } : {}),
  };
  spec.history.push(partial);
  spec.hooks.onMessage?.(spec.runId, partial);
  if (started) recordResults(spec, started.calls, started.results);
}

/** A reply that ended as its run was stopped: the calls it started, with how each ended. */
function keepStopped(spec: LoopSpec, item: ReplyItem, started: StartedCalls | undefined): void {
  if (!started) return;
  const stopped: ModelMessage = { role: 'assistant', content: item.forHistory(), toolCalls: started.calls };
  spec.history.push(stopped);
  spec.hooks.onMessage?.(spec.runId, stopped);
  recordResults(spec, started.calls, started.results);
}

/** What a failed loop says: provider errors and budget errors already carry their full,
 * secret-free message. */
export function describeLoopError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
