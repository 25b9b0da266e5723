// Typed reads of the parts of a recorded request body that wireBody.ts leaves alone: the
// tools it offered and the messages' own fields (an assistant's content parts, OpenAI's
// reasoning_content). Both dialects: OpenAI wraps a tool in `function`, Anthropic sends it
// bare with `input_schema`. Tests read these instead of casting the body to `any`.
import { messagesOf, type WireMessage } from './wireBody.js';

/** The top-level fields of a request body that tests check, in either dialect (Anthropic
 * sends the system prompt as `system` and extended thinking as `thinking`). */
export interface WireRequest {
  model?: string;
  stream?: boolean;
  temperature?: number;
  max_tokens?: number;
  system?: unknown;
  thinking?: unknown;
  messages?: SentMessage[];
}

/** The body as its top-level fields ({} for a body that is not an object). */
export function requestOf(body: unknown): WireRequest {
  return typeof body === 'object' && body !== null ? (body as WireRequest) : {};
}

/** The JSON schema of a tool's arguments, as far as the tests look into it. */
export interface WireSchema {
  type?: string;
  description?: string;
  properties?: Record<string, WireSchema>;
  required?: string[];
}

/** One offered tool, the same shape whichever dialect sent it. */
export interface WireTool {
  name: string;
  description?: string;
  parameters: WireSchema;
}

interface RawTool {
  name?: string;
  description?: string;
  input_schema?: WireSchema;
  function?: { name: string; description?: string; parameters?: WireSchema };
}

/** The tools the request offered, in the order sent; [] when it offered none. */
export function offeredTools(body: unknown): WireTool[] {
  const tools = (body as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return [];
  return (tools as RawTool[]).map((t) =>
    t.function
      ? { name: t.function.name, description: t.function.description, parameters: t.function.parameters ?? {} }
      : { name: t.name ?? '', description: t.description, parameters: t.input_schema ?? {} },
  );
}

/** One offered tool by name; a test that looks for a tool that was not offered fails here, naming it. */
export function offeredTool(body: unknown, name: string): WireTool {
  const tool = offeredTools(body).find((t) => t.name === name);
  if (!tool)
    throw new Error(
      `tool ${name} was not offered (offered: ${
        offeredTools(body)
          .map((t) => t.name)
          .join(', ') || 'none'
      })`,
    );
  return tool;
}

/** A content part of an Anthropic message (text, tool_use, thinking, redacted_thinking...). */
export interface WirePart {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
}

/** A sent message with the fields a dialect adds: OpenAI's reasoning_content, and content
 * that may be a list of parts. */
export interface SentMessage extends WireMessage {
  reasoning_content?: string;
  /** OpenAI: the calls an assistant message made. */
  tool_calls?: Array<{ id: string; type?: string; function: { name: string; arguments: string } }>;
}

/** The messages of `role` in the order sent. */
export function messagesWithRole(body: unknown, role: string): SentMessage[] {
  return messagesOf(body).filter((m) => m.role === role);
}

/** A message's content as a list of parts ([] for a plain string). */
export function partsOf(message: WireMessage | undefined): WirePart[] {
  return Array.isArray(message?.content) ? (message.content as WirePart[]) : [];
}
