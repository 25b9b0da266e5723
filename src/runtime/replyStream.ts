// One model call's stream, event by event: text and reasoning into the reply's item, the
// calls collected (and handed on as they come when the step starts them early), usage onto
// the run and its budgets, retry notices, and the model that answered.
import { estimateCostUsd } from '../providers/createProvider.js';
import { retryNoticeText } from '../providers/retry.js';
import type { StreamEvent, ToolCallRequest } from '../providers/types.js';
import type { LoopSpec } from './loopSpec.js';
import { ReplyItem } from './replyItem.js';
import { addUsage, patchRun } from './store.js';

export class ReplyStream {
  readonly item: ReplyItem;
  readonly calls: ToolCallRequest[] = [];
  private readonly spec: LoopSpec;
  /** Set when a parallel batch starts each call as the reply hands it on (streamedCalls.ts). */
  private readonly startCall: ((call: ToolCallRequest) => void) | undefined;

  constructor(spec: LoopSpec, startCall: ((call: ToolCallRequest) => void) | undefined) {
    this.spec = spec;
    this.startCall = startCall;
    this.item = new ReplyItem(spec);
  }

  take(ev: StreamEvent): void {
    const { spec } = this;
    switch (ev.type) {
      case 'text':
        this.item.textDelta(ev.delta);
        break;
      case 'reasoning':
        this.item.reasoningDelta(ev.delta);
        break;
      case 'reasoning_block':
        this.item.reasoning.block(ev.block);
        break;
      case 'tool_call':
        this.calls.push(ev.call);
        if (this.startCall) {
          // The reply's text so far goes above the call's card.
          this.item.flushNow();
          this.startCall(ev.call);
        }
        break;
      case 'usage': {
        this.item.reasoning.usage(ev.usage.reasoningTokens);
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
}

/** The card, the /agents row and the trace log show the model that answered, as the
 * provider's reply names it (the configured one until a reply says otherwise). */
function noteAnsweringModel(spec: LoopSpec, modelId: string): void {
  const model = `${spec.providerConfig.type}/${modelId.slice(0, 200)}`;
  if (spec.store.getState().runs.get(spec.runId)?.model !== model) patchRun(spec.store, spec.runId, { model });
}
