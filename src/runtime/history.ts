import type { ModelMessage } from '../providers/types.js';

/** After an interrupted turn, every tool call in the history must have a result, or the
 * next request is rejected by providers that pair calls with results. */
export function repairHistory(history: ModelMessage[]): void {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const answered = new Set(
      history
        .slice(i + 1)
        .filter((x) => x.role === 'tool')
        .map((x) => (x as { toolCallId: string }).toolCallId),
    );
    const missing = m.toolCalls.filter((c) => !answered.has(c.id));
    let insertAt = i + 1;
    while (insertAt < history.length && history[insertAt].role === 'tool') insertAt++;
    history.splice(
      insertAt,
      0,
      ...missing.map((c) => ({
        role: 'tool' as const,
        toolCallId: c.id,
        toolName: c.name,
        content: 'interrupted by the user before this call finished',
        isError: true,
      })),
    );
    break;
  }
}
