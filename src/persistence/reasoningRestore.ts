// The reasoning blocks of a stored assistant message, checked on the way back from disk. A
// block the provider would reject (not text, a signature that is not a string) would fail
// every later request of the resumed conversation, so what does not fit the shape is
// dropped; the message itself is kept. Files written before reasoning was stored have none.
import type { ModelMessage, ReasoningBlock } from '../model/messages.js';

function toBlock(value: unknown): ReasoningBlock | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.text !== 'string') return undefined;
  if (v.signature !== undefined && typeof v.signature !== 'string') return undefined;
  if (v.redactedData !== undefined && typeof v.redactedData !== 'string') return undefined;
  const block: ReasoningBlock = { text: v.text };
  if (typeof v.signature === 'string') block.signature = v.signature;
  if (typeof v.redactedData === 'string') block.redactedData = v.redactedData;
  return block;
}

export function restoreReasoning(message: ModelMessage): ModelMessage {
  if (message.role !== 'assistant' || !('reasoning' in message)) return message;
  const stored: unknown = message.reasoning;
  const blocks = Array.isArray(stored) ? stored.map(toBlock) : [];
  const kept = blocks.filter((b): b is ReasoningBlock => b !== undefined);
  const { reasoning: _dropped, ...rest } = message;
  // All or nothing: a signed sequence with a block missing would not verify either.
  return kept.length > 0 && kept.length === blocks.length ? { ...rest, reasoning: kept } : rest;
}
