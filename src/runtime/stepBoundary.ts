// A step boundary of the loop: before a model call and between calls in order.
import { randomUUID } from 'node:crypto';
import type { ModelMessage } from '../providers/types.js';
import { RunAbortedError, type LoopSpec } from './loopSpec.js';
import { appendItem } from './store.js';

/** Honours kill/stop and pause. Steering is delivered only before a model call: between an
 * assistant's tool calls and their results a user message would break the history. */
export async function stepBoundary(spec: LoopSpec, deliverSteering: boolean): Promise<void> {
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
