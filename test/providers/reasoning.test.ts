// Reasoning through the real AI SDK providers against loopback servers speaking the real
// wire formats: OpenAI-compatible `reasoning_content` / `reasoning` deltas, Anthropic
// `thinking` blocks closed by a `signature_delta` and `redacted_thinking` blocks; and what
// goes back to each provider in the next request.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/config/types.js';
import { setLanguage } from '../../src/i18n/index.js';
import { createProvider } from '../../src/providers/createProvider.js';
import type { ModelMessage, ReasoningBlock, StreamEvent } from '../../src/providers/types.js';
import { startLoopbackModel, type LoopbackDialect, type LoopbackModel, type LoopbackReply } from '../support/loopbackModel.js';
import { messagesWithRole, partsOf, requestOf } from '../support/wireRequest.js';
import { drain, readFileTool } from './streamHelpers.js';

const KEY_ENV = 'ARBOR_TEST_PROVIDER_KEY';
const ENV = { [KEY_ENV]: 'sk-test-key', ARBOR_RETRY_BASE_MS: '5' };
const HELLO: ModelMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'What is 6*7?' },
];

beforeAll(() => setLanguage('en'));

let server: LoopbackModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(dialect: LoopbackDialect, respond: (index: number) => LoopbackReply) {
  server = await startLoopbackModel({ dialect, respond: ({ index }) => respond(index) });
  return server;
}

function provider(url: string, type: ProviderConfig['type'], extra: Partial<ProviderConfig> = {}) {
  return createProvider({ name: 'p', type, base_url: url, model: 'm', api_key_env: KEY_ENV, headers: {}, ...extra }, ENV);
}

/** A history whose last turn is read_file's answer "A" to call `callId`, made by an
 * assistant message with `assistant`'s text and reasoning; `before` stands between the
 * system prompt and that message. */
function afterReadFile(
  callId: string,
  before: ModelMessage[],
  assistant: { content: string; reasoning: ReasoningBlock[] },
): ModelMessage[] {
  const call = { id: callId, name: 'read_file', args: { path: 'a' }, rawArgs: '{"path":"a"}' };
  return [
    { role: 'system', content: 'sys' },
    ...before,
    { role: 'assistant', ...assistant, toolCalls: [call] },
    { role: 'tool', toolCallId: callId, toolName: 'read_file', content: 'A' },
  ];
}

/** The body a `type` provider sends for `messages` (read_file offered), the reply being fine. */
async function sentBody(dialect: LoopbackDialect, type: ProviderConfig['type'], messages: ModelMessage[]): Promise<unknown> {
  const srv = await serve(dialect, () => ({ kind: 'text', chunks: ['ok'] }));
  const out = await drain(provider(srv.url, type), { messages, tools: [readFileTool] });
  expect(out.error).toBeUndefined();
  return srv.requests[0].body;
}

const deltas = (events: StreamEvent[], type: 'text' | 'reasoning') =>
  events.filter((e) => e.type === type).map((e) => (e as { delta: string }).delta);
const blocks = (events: StreamEvent[]) => events.filter((e) => e.type === 'reasoning_block').map((e) => (e as { block: unknown }).block);

describe('openai-compatible reasoning deltas', () => {
  it.each(['reasoning_content', 'reasoning'] as const)('streams %s apart from the answer, with the reported token count', async (field) => {
    const srv = await serve('openai', () => ({
      kind: 'text',
      chunks: ['The answer ', 'is 42.'],
      reasoning: { chunks: ['Six times ', 'seven…'], field, reasoningTokens: 9 },
      usage: { input: 5, output: 20 },
    }));
    const out = await drain(provider(srv.url, 'openai-compatible'), { messages: HELLO });
    expect(out.error).toBeUndefined();
    expect(deltas(out.events, 'reasoning')).toEqual(['Six times ', 'seven…']);
    expect(out.text).toBe('The answer is 42.');
    expect(blocks(out.events)).toEqual([{ text: 'Six times seven…' }]);
    expect(out.events).toContainEqual({ type: 'usage', usage: { inputTokens: 5, outputTokens: 20, reasoningTokens: 9 } });
    // Reasoning comes before the answer's first delta.
    const firstText = out.events.findIndex((e) => e.type === 'text');
    const lastReasoning = out.events.map((e) => e.type).lastIndexOf('reasoning');
    expect(lastReasoning).toBeLessThan(firstText);
  });

  it("sends reasoning back only in the current turn's tool-call continuation", async () => {
    const messages = afterReadFile(
      'call_1',
      [
        { role: 'user', content: 'old question' },
        { role: 'assistant', content: 'old answer', reasoning: [{ text: 'old thoughts' }] },
        { role: 'user', content: 'read a' },
      ],
      { content: '', reasoning: [{ text: 'I should read a' }] },
    );
    const assistants = messagesWithRole(await sentBody('openai', 'openai-compatible', messages), 'assistant');
    expect(assistants[0].reasoning_content).toBeUndefined();
    expect(assistants[0].content).toBe('old answer');
    expect(assistants[1].reasoning_content).toBe('I should read a');
  });
});

describe('anthropic thinking blocks', () => {
  it('streams thinking with its signature and a redacted block, apart from the answer', async () => {
    const srv = await serve('anthropic', () => ({
      kind: 'text',
      chunks: ['42.'],
      reasoning: { chunks: ['Let me ', 'multiply.'], signature: 'sig-abc==', redacted: 'ENCRYPTED' },
    }));
    const out = await drain(provider(srv.url, 'anthropic', { thinking_budget_tokens: 2048 }), { messages: HELLO });
    expect(out.error).toBeUndefined();
    expect(deltas(out.events, 'reasoning')).toEqual(['Let me ', 'multiply.']);
    expect(out.text).toBe('42.');
    expect(blocks(out.events)).toEqual([
      { text: 'Let me multiply.', signature: 'sig-abc==' },
      { text: '', redactedData: 'ENCRYPTED' },
    ]);
    // thinking_budget_tokens asks for extended thinking.
    expect(requestOf(srv.requests[0].body).thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('sends signed and redacted thinking back first in the assistant message, and drops unsigned text', async () => {
    const messages = afterReadFile('toolu_1', [{ role: 'user', content: 'read a' }], {
      content: 'Reading.',
      reasoning: [{ text: 'I should read a', signature: 'sig-1' }, { text: '', redactedData: 'DATA' }, { text: 'unsigned' }],
    });
    const body = await sentBody('anthropic', 'anthropic', messages);
    const parts = partsOf(messagesWithRole(body, 'assistant')[0]);
    expect(parts.map((p) => p.type)).toEqual(['thinking', 'redacted_thinking', 'text', 'tool_use']);
    expect(parts[0]).toEqual({ type: 'thinking', thinking: 'I should read a', signature: 'sig-1' });
    expect(parts[1]).toEqual({ type: 'redacted_thinking', data: 'DATA' });
    expect(JSON.stringify(body)).not.toContain('unsigned');
  });

  it('asks for no thinking when no budget is set', async () => {
    const srv = await serve('anthropic', () => ({ kind: 'text', chunks: ['hi'] }));
    await drain(provider(srv.url, 'anthropic'), { messages: HELLO });
    expect(requestOf(srv.requests[0].body).thinking).toBeUndefined();
  });
});
