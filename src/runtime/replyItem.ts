// The assistant item one streamed reply fills: its text and reasoning reach the store at
// most once per TEXT_FLUSH_MS, its final form goes to the session log (with a notice when
// the reply was cut at max_reply_kb), and the text the model reads back is kept here.
import { randomUUID } from 'node:crypto';
import { replyCapBytes } from '../config/defaults.js';
import { t } from '../i18n/index.js';
import { formatBytes } from '../text/sizes.js';
import type { LoopSpec } from './loopSpec.js';
import { ReasoningTrace } from './reasoningTrace.js';
import { ReplyBuffer, REPLY_TRUNCATED_MARKER } from './replyBuffer.js';
import { appendItem, updateItem } from './store.js';

/** How often streamed text reaches the store: a frame's worth at a time (the UI draws at
 * most 30 frames a second, so more frequent updates would cost layout and never show). */
const TEXT_FLUSH_MS = 50;

export class ReplyItem {
  /** The reply's kept text so far. */
  text = '';
  readonly reasoning: ReasoningTrace;
  private readonly spec: LoopSpec;
  private readonly itemId = randomUUID();
  private readonly reply: ReplyBuffer;
  private reasoningFlushed = 0;
  private flushed = 0;
  private itemAdded = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(spec: LoopSpec) {
    this.spec = spec;
    this.reply = new ReplyBuffer(replyCapBytes(spec.caller.runtime));
    this.reasoning = new ReasoningTrace(replyCapBytes(spec.caller.runtime));
  }

  textDelta(delta: string): void {
    this.reply.append(delta);
    this.text = this.reply.text;
    this.reasoning.answering();
    if (!this.timer) this.timer = setTimeout(this.flush, TEXT_FLUSH_MS);
  }

  reasoningDelta(delta: string): void {
    this.reasoning.delta(delta);
    if (!this.timer) this.timer = setTimeout(this.flush, TEXT_FLUSH_MS);
  }

  /** What is waiting for the throttle reaches the store now (before a call's card). */
  flushNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.flush();
  }

  /** Made once per reply (an arrow field): the throttle's timer calls it. */
  private readonly flush = (): void => {
    const { spec, reasoning } = this;
    this.timer = undefined;
    if (this.text.length === this.flushed && reasoning.version === this.reasoningFlushed) return;
    this.flushed = this.text.length;
    this.reasoningFlushed = reasoning.version;
    const thought = reasoning.fields();
    if (!this.itemAdded) {
      this.itemAdded = true;
      appendItem(spec.store, spec.runId, {
        id: this.itemId,
        kind: 'assistant',
        runId: spec.runId,
        text: this.text,
        at: Date.now(),
        streaming: true,
        ...thought,
      });
    } else {
      const snapshot = this.text;
      updateItem(spec.store, spec.runId, this.itemId, (it) => (it.kind === 'assistant' ? { ...it, text: snapshot, ...thought } : it));
    }
  };

  finish(interrupted: boolean): void {
    const { spec, reply, text } = this;
    this.flushNow();
    if (!this.itemAdded) return;
    // The item as the store keeps it (neutralised) is what the session file records.
    const final = updateItem(spec.store, spec.runId, this.itemId, (it) =>
      it.kind === 'assistant'
        ? { ...it, text, ...this.reasoning.fields(true), streaming: false, interrupted: interrupted || undefined }
        : it,
    );
    if (final) spec.hooks.onItemFinal?.(spec.runId, final);
    if (reply.truncated) {
      const note = appendItem(spec.store, spec.runId, {
        id: randomUUID(),
        kind: 'notice',
        level: 'warn',
        text: t('runtime:replyTruncated', {
          received: formatBytes(reply.receivedBytes),
          kept: formatBytes(reply.keptBytes),
          key: 'max_reply_kb',
        }),
        at: Date.now(),
      });
      spec.hooks.onItemFinal?.(spec.runId, note);
    }
  }

  /** What the model reads back: the kept text, and where it was cut. */
  forHistory(): string {
    const { reply, text } = this;
    return reply.truncated ? text + REPLY_TRUNCATED_MARKER(reply.keptBytes, reply.receivedBytes) : text;
  }
}
