// Reasoning between our history and the AI SDK's stream and prompt parts. Streamed, the
// SDK gives reasoning-start / -delta / -end per block (the openai-compatible provider maps
// both `reasoning_content` and `reasoning` deltas to them; Anthropic's thinking blocks
// carry their signature on a delta's providerMetadata, redacted_thinking its data on the
// start). Sent back, each provider wants its own subset (see reasoningPromptParts).
import type { LanguageModelV3Prompt, SharedV3ProviderMetadata } from '@ai-sdk/provider';
import type { ProviderType } from '../model/provider.js';
import type { ModelMessage, ReasoningBlock } from '../model/messages.js';
import type { StreamEvent } from './types.js';

type ReasoningPart =
  | { type: 'reasoning-start'; id: string; providerMetadata?: SharedV3ProviderMetadata }
  | { type: 'reasoning-delta'; id: string; delta: string; providerMetadata?: SharedV3ProviderMetadata }
  | { type: 'reasoning-end'; id: string; providerMetadata?: SharedV3ProviderMetadata };

function anthropicMeta(meta: SharedV3ProviderMetadata | undefined): { signature?: string; redactedData?: string } {
  const a = meta?.anthropic;
  if (!a || typeof a !== 'object') return {};
  const out: { signature?: string; redactedData?: string } = {};
  if (typeof a.signature === 'string') out.signature = a.signature;
  if (typeof a.redactedData === 'string') out.redactedData = a.redactedData;
  return out;
}

/** Assembles the stream's reasoning parts into our events: a `reasoning` event per text
 * delta, a `reasoning_block` when a block ends (whole, with its signature). */
export class ReasoningCollector {
  private readonly open = new Map<string, ReasoningBlock>();

  take(part: ReasoningPart): StreamEvent[] {
    const block = this.open.get(part.id) ?? { text: '' };
    if (!this.open.has(part.id)) this.open.set(part.id, block);
    Object.assign(block, anthropicMeta(part.providerMetadata));
    if (part.type === 'reasoning-delta' && part.delta) {
      block.text += part.delta;
      return [{ type: 'reasoning', delta: part.delta }];
    }
    if (part.type === 'reasoning-end') {
      this.open.delete(part.id);
      return [{ type: 'reasoning_block', block }];
    }
    return [];
  }

  /** Blocks a stream finished without closing: what arrived is still what was said. */
  flush(): StreamEvent[] {
    const out: StreamEvent[] = [...this.open.values()].map((block) => ({ type: 'reasoning_block', block }));
    this.open.clear();
    return out;
  }
}

type AssistantPart = Extract<LanguageModelV3Prompt[number], { role: 'assistant' }>['content'][number];

/** Index of the last message a person wrote: later assistant messages are this turn's
 * tool-call continuation. */
export function lastUserIndex(messages: readonly ModelMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return i;
  return -1;
}

/** The reasoning parts an assistant message goes back with, by provider:
 * - anthropic: every signed thinking block and every redacted one, unchanged (the API
 *   requires them in a tool-call continuation and verifies the signature); unsigned text
 *   (from another provider, or a cut-off stream) cannot be sent and is left out;
 * - openai-compatible: the reasoning text, only within the current turn's tool-call
 *   continuation (DeepSeek / Kimi thinking models want `reasoning_content` back there; older
 *   turns' reasoning is dropped, as those servers ask);
 * - openai (chat completions): none, it takes no reasoning back. */
export function reasoningPromptParts(
  m: Extract<ModelMessage, { role: 'assistant' }>,
  type: ProviderType,
  currentTurn: boolean,
): AssistantPart[] {
  const blocks = m.reasoning ?? [];
  if (blocks.length === 0) return [];
  if (type === 'anthropic') {
    const parts: AssistantPart[] = [];
    for (const b of blocks) {
      if (b.redactedData) parts.push({ type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: b.redactedData } } });
      else if (b.signature) parts.push({ type: 'reasoning', text: b.text, providerOptions: { anthropic: { signature: b.signature } } });
    }
    return parts;
  }
  if (type === 'openai-compatible' && currentTurn && m.toolCalls?.length) {
    const text = blocks.map((b) => b.text).join('');
    return text ? [{ type: 'reasoning', text }] : [];
  }
  return [];
}
