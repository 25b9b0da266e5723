// One streamed reply, kept up to a byte cap (runtime profile max_reply_kb). Past the cap the
// deltas are only counted: memory, drawing, the session file and the next request all stay
// bounded however much a model sends. Appending is amortised O(1) (V8 string ropes), so a
// long reply is never quadratic here.

/** What the model reads back when its reply was cut (protocol text, not localized). */
export const REPLY_TRUNCATED_MARKER = (keptBytes: number, receivedBytes: number) =>
  `\n[arbor: reply truncated here; ${keptBytes} of ${receivedBytes} bytes kept]`;

export class ReplyBuffer {
  text = '';
  keptBytes = 0;
  receivedBytes = 0;
  private full = false;

  constructor(readonly capBytes: number) {}

  /** True once something was dropped. */
  get truncated(): boolean {
    return this.receivedBytes > this.keptBytes;
  }

  append(delta: string): void {
    const bytes = Buffer.byteLength(delta, 'utf8');
    this.receivedBytes += bytes;
    if (this.full) return;
    if (this.keptBytes + bytes <= this.capBytes) {
      this.text += delta;
      this.keptBytes += bytes;
      return;
    }
    // Cut on a character boundary at or below the cap.
    const room = this.capBytes - this.keptBytes;
    const part = Buffer.from(delta, 'utf8')
      .subarray(0, room)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    this.text += part;
    this.keptBytes += Buffer.byteLength(part, 'utf8');
    this.full = true;
  }
}
