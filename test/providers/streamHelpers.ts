// Shared by the provider tests: drain a provider stream into events plus the error it ended with.
import type { CompletionRequest, ModelMessage, ModelProvider, StreamEvent, ToolSpec } from '../../src/providers/types.js';

export interface Drained {
  events: StreamEvent[];
  error?: unknown;
  text: string;
}

export async function drain(
  provider: ModelProvider,
  req: Partial<CompletionRequest> & { messages: ModelMessage[] },
  onEvent?: (e: StreamEvent) => void,
): Promise<Drained> {
  const events: StreamEvent[] = [];
  let error: unknown;
  try {
    for await (const e of provider.stream({ tools: [], signal: new AbortController().signal, ...req })) {
      events.push(e);
      onEvent?.(e);
    }
  } catch (err) {
    error = err;
  }
  const text = events.map((e) => (e.type === 'text' ? e.delta : '')).join('');
  return { events, error, text };
}

export const readFileTool: ToolSpec = {
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
