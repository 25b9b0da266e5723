// One model call's reasoning, kept apart from its answer: the shown text (capped like the
// reply, for the store), the whole blocks (for the model history, with their signatures)
// and a running token count.
import type { ReasoningBlock } from '../model/messages.js';
import type { TranscriptItem } from '../model/transcript.js';
import { ReplyBuffer } from './replyBuffer.js';

type AssistantItem = Extract<TranscriptItem, { kind: 'assistant' }>;
export type ReasoningFields = Pick<AssistantItem, 'reasoning' | 'reasoningTokens' | 'thinking' | 'reasoningRedacted'>;

/** A token is about four characters of English; used until the provider gives its count. */
export function estimateReasoningTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

export class ReasoningTrace {
  readonly blocks: ReasoningBlock[] = [];
  private readonly shown: ReplyBuffer;
  private chars = 0;
  private reported: number | undefined;
  private redacted = false;
  private active = false;
  /** Bumped on every change, so the loop knows when the store needs an update. */
  version = 0;

  constructor(private readonly capBytes: number) {
    this.shown = new ReplyBuffer(capBytes);
  }

  delta(text: string): void {
    this.shown.append(text);
    this.chars += text.length;
    this.active = true;
    this.version++;
  }

  block(block: ReasoningBlock): void {
    // A signed or encrypted block goes back byte for byte or not at all; plain reasoning is
    // kept up to the reply cap like the answer.
    if (!block.signature && !block.redactedData) {
      const cut = new ReplyBuffer(this.capBytes);
      cut.append(block.text);
      if (cut.truncated) block = { ...block, text: cut.text };
    }
    this.blocks.push(block);
    if (block.redactedData) this.redacted = true;
    this.version++;
  }

  /** Answer text arrived: the model is no longer thinking. */
  answering(): void {
    if (!this.active) return;
    this.active = false;
    this.version++;
  }

  /** The provider's own count of reasoning tokens, when it gives one. */
  usage(reasoningTokens: number | undefined): void {
    if (!reasoningTokens) return;
    this.reported = (this.reported ?? 0) + reasoningTokens;
    this.version++;
  }

  get present(): boolean {
    return this.chars > 0 || this.blocks.length > 0;
  }

  get tokens(): number {
    return this.reported ?? estimateReasoningTokens(this.chars);
  }

  /** The assistant item's reasoning fields (none when the model did not reason). */
  fields(done = false): ReasoningFields {
    if (!this.present) return {};
    return {
      reasoning: this.shown.text,
      reasoningTokens: this.tokens,
      thinking: !done && this.active ? true : undefined,
      reasoningRedacted: this.redacted || undefined,
    };
  }

  /** What the history keeps: every finished block, whole. */
  forHistory(): { reasoning?: ReasoningBlock[] } {
    return this.blocks.length ? { reasoning: this.blocks } : {};
  }
}
