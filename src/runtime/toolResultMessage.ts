// A call's result as the history message the model reads back. Built when the call
// settles, not when the step's batch is entered: a 1,000-call fan-out otherwise made its
// 1,000 messages in one cold loop between the last child's answer and the root's next
// request (0.5-8 ms at 1,000 children against 0.1-0.9 ms at 100, bench/spawn-fanout).
import type { ModelMessage, ToolCallRequest } from '../model/messages.js';
import type { ToolResult } from '../tools/types.js';

export function toolResultMessage(call: ToolCallRequest, r: ToolResult): ModelMessage {
  return {
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: r.success ? r.output : (r.error ?? 'error'),
    isError: !r.success || undefined,
    ...(r.display ? { display: r.display } : {}),
  };
}
