// What the fake model servers read from an OpenAI chat-completions request body.

/** The first user message: a child's task. */
export function firstUserText(body) {
  const m = (body?.messages ?? []).find((x) => x.role === 'user');
  if (typeof m?.content === 'string') return m.content;
  return Array.isArray(m?.content) ? m.content.map((p) => p.text ?? '').join('') : '';
}

/** The latest user message: what the user typed last in a root session. */
export function lastUserText(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) return m.content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

/** The tool results in the request, as { id: the call's id, content: its text }. */
export function toolResults(body) {
  return (body?.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => ({ id: String(m.tool_call_id), content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }));
}
