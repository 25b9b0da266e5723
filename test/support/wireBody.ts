// Typed reads of a request body the loopback model recorded (the OpenAI chat-completions
// shape; Anthropic bodies have the same `messages` with `role` and `content`). Tests script
// replies and check what the model was sent through these instead of `any` walks.

export interface WireMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

interface WireBody {
  messages?: WireMessage[];
}

/** The body's messages, [] when it has none (a raw or non-chat body). */
export function messagesOf(body: unknown): WireMessage[] {
  const messages = (body as WireBody | undefined)?.messages;
  return Array.isArray(messages) ? messages : [];
}

/** A message content as text: a string as is, an array of parts joined by the text of its
 * text parts (a part of another type, such as a tool_result, adds nothing). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: { type?: unknown; text?: unknown } | null | undefined) =>
      typeof p?.text === 'string' && (p.type === undefined || p.type === 'text') ? p.text : '',
    )
    .join('');
}

/** The system message's text ('' when there is none): how a server tells agents apart. */
export function systemOf(body: unknown): string {
  return textOf(messagesOf(body).find((m) => m.role === 'system')?.content);
}

/** The first user message: a child's task, or what was typed at the root. */
export function firstUser(body: unknown): string {
  return textOf(messagesOf(body).find((m) => m.role === 'user')?.content);
}

/** The last user message, whatever it holds. */
export function lastUser(body: unknown): string {
  return textOf([...messagesOf(body)].reverse().find((m) => m.role === 'user')?.content);
}

/** Every tool result message (OpenAI `role: "tool"`), oldest first. */
export function toolResults(body: unknown): Array<{ tool_call_id: string; content: string }> {
  return messagesOf(body)
    .filter((m) => m.role === 'tool')
    .map((m) => ({
      tool_call_id: m.tool_call_id as string,
      content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
    }));
}
