// One tool call of a step, from its card to its result: the unknown-tool, bad-arguments and
// duplicate guards, the pause gate, the approval, the ledger's observation around the run,
// and the card's final form.
import { randomUUID } from 'node:crypto';
import type { ToolCallRequest } from '../providers/types.js';
import type { ToolContext, ToolResult } from '../tools/types.js';
import { capDisplay } from '../text/displayCap.js';
import { approvalPreview } from './approvalPreview.js';
import { FANOUT_DECLINED } from './fanoutDeclined.js';
import type { ToolObservation } from './ledger/book.js';
import type { LoopSpec } from './loopSpec.js';
import { capResult, toolFinished, toolStarted, updateItem } from './store.js';
import type { ToolTranscriptItem } from './types.js';

export const DUPLICATE_SKIPPED = (tool: string) =>
  `Skipped: '${tool}' was already called with identical arguments in this turn; reuse that result.`;
export const UNKNOWN_TOOL = (tool: string, known: string[]) =>
  `Unknown tool '${tool}'. Available tools: ${known.length ? known.join(', ') : '(none)'}.`;
export const BAD_ARGUMENTS = (tool: string) =>
  `Tool '${tool}' received arguments that are not valid JSON; call it again with a JSON object.`;

function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.keys(value as object)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

export function toolCard(spec: LoopSpec, call: ToolCallRequest): ToolTranscriptItem {
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

/** A call the operator did not let start (fan-out confirmation). */
export function declineCall(spec: LoopSpec, item: ToolTranscriptItem): ToolResult {
  const result: ToolResult = { success: false, output: '', error: FANOUT_DECLINED };
  const final = updateItem(spec.store, spec.runId, item.id, (it) =>
    it.kind === 'tool' ? { ...it, status: 'denied', result: FANOUT_DECLINED, endedAt: Date.now() } : it,
  );
  if (final) spec.hooks.onItemFinal?.(spec.runId, final);
  return result;
}

export async function runToolCall(spec: LoopSpec, call: ToolCallRequest, item: ToolTranscriptItem, seen: Set<string>): Promise<ToolResult> {
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
