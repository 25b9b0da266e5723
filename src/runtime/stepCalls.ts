// A step's tool calls as a batch: run in order or in groups (or collected when the reply
// started them as it streamed), stopped with the step, and their results entered in the
// history in call order.
import type { ModelMessage, ToolCallRequest } from '../providers/types.js';
import type { ToolResult } from '../tools/types.js';
import { startInGroups } from './batchedStart.js';
import { RunAbortedError, type LoopSpec } from './loopSpec.js';
import { stepBoundary } from './stepBoundary.js';
import type { StreamedCalls } from './streamedCalls.js';
import { appendItem } from './store.js';
import { declineCall, runToolCall, toolCard } from './toolCall.js';
import { toolResultMessage } from './toolResultMessage.js';

/** Runs the step's calls (or collects the ones already started) and records their results
 * in call order. */
export async function runToolCalls(spec: LoopSpec, calls: ToolCallRequest[], seen: Set<string>, streamed?: StreamedCalls): Promise<void> {
  // The reply's calls are the ones it started as it streamed, in the same order.
  enterMessages(spec, streamed ? await streamed.collectMessages() : await runUnstarted(spec, calls, seen));
  if (spec.signal.aborted) throw new RunAbortedError();
}

/** The calls a reply started as it streamed, and how each ended. */
export interface StartedCalls {
  calls: ToolCallRequest[];
  results: ToolResult[];
}

/** Stops the calls a reply started as it streamed; what they were and how each ended, when
 * there were any. */
export async function stopStarted(streamed: StreamedCalls | undefined): Promise<StartedCalls | undefined> {
  if (!streamed) return undefined;
  const started = await streamed.cancel();
  return started.calls.length ? started : undefined;
}

/** Each call's result joins the history after the reply that asked for it, in call order. */
export function recordResults(spec: LoopSpec, calls: ToolCallRequest[], results: ToolResult[]): void {
  enterMessages(
    spec,
    calls.map((call, i) => toolResultMessage(call, results[i])),
  );
}

/** Results already made into messages (as each call settled), entered in call order. */
function enterMessages(spec: LoopSpec, messages: readonly ModelMessage[]): void {
  for (const msg of messages) {
    spec.history.push(msg);
    spec.hooks.onMessage?.(spec.runId, msg);
  }
}

/** Runs calls that did not start as the reply streamed; each one's message is made as it
 * settles, and they come back in call order. */
async function runUnstarted(spec: LoopSpec, calls: ToolCallRequest[], seen: Set<string>): Promise<ModelMessage[]> {
  const items = calls.map((call) => toolCard(spec, call));
  // Cards of every call appear at once, in order, before any of them runs.
  for (const item of items) appendItem(spec.store, spec.runId, item);
  const declined = spec.reviewFanout ? await spec.reviewFanout(calls) : undefined;

  const messages: ModelMessage[] = new Array(calls.length);
  const runOne = async (i: number) => {
    const result = declined?.has(calls[i].id) ? declineCall(spec, items[i]) : await runToolCall(spec, calls[i], items[i], seen);
    messages[i] = toolResultMessage(calls[i], result);
  };
  if (spec.caller.runtime.parallel_tools && calls.length > 1) {
    await startInGroups(calls.length, runOne);
  } else {
    for (let i = 0; i < calls.length; i++) {
      if (i > 0) await stepBoundary(spec, false);
      await runOne(i);
    }
  }
  return messages;
}
