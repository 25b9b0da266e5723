// Model conversation shapes: the messages a run's history holds, the tool calls a model
// asks for. Shared by providers (which speak them on the wire), persistence (session files)
// and the runtime.
import type { ToolDisplay } from './toolDisplay.js';

/** A tool call the model asked for. `args` is the parsed JSON object; when the model sent
 * arguments that do not parse, `args` is undefined and `rawArgs` keeps the text. */
export interface ToolCallRequest {
  id: string;
  name: string;
  args: unknown;
  rawArgs: string;
}

/** One block of a model's reasoning as it was said, kept in the history so it can be sent
 * back. Anthropic signs a thinking block (`signature`) or sends it encrypted
 * (`redactedData`, no text); its API wants both back unchanged in a tool-call
 * continuation, so the text here is never neutralised or cut. */
export interface ReasoningBlock {
  text: string;
  signature?: string;
  redactedData?: string;
}

export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCallRequest[]; reasoning?: ReasoningBlock[] }
  | {
      role: 'tool';
      toolCallId: string;
      toolName: string;
      content: string;
      isError?: boolean;
      /** The result's structured display, for arbor's own readers (the offline model, the
       * session file). Providers send a real model `content` only. */
      display?: ToolDisplay;
    };

/** JSON-schema description of a tool, as the model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
