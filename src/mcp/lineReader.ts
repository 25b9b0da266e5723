// Splits a byte stream into newline-ended lines without ever holding more than a bound of
// one line: a line longer than that is consumed to its newline, keeping only its first and
// last bytes (enough to say which request it answered and to quote its start), so a server
// that writes 50 MB on one line costs the bound, not 50 MB, and the stream stays in step.

export interface OversizedLine {
  /** The first bytes of the line. */
  head: Buffer;
  /** The last bytes of the line (before the newline). */
  tail: Buffer;
  /** The length of the whole line in bytes. */
  total: number;
}

export interface LineReaderSink {
  line(text: string): void;
  oversized(line: OversizedLine): void;
}

export const LINE_HEAD_BYTES = 64 * 1024;
export const LINE_TAIL_BYTES = 1024;

export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private big: OversizedLine | undefined;

  constructor(
    private readonly maxLineBytes: number,
    private readonly sink: LineReaderSink,
  ) {
    if (maxLineBytes < LINE_HEAD_BYTES) throw new Error(`line bound ${maxLineBytes} is below the kept head of ${LINE_HEAD_BYTES} bytes`);
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      this.take(chunk.subarray(start, nl === -1 ? chunk.length : nl));
      if (nl === -1) return;
      this.finish();
      start = nl + 1;
    }
  }

  /** Drops whatever is half read (the stream ended or is being closed). */
  clear(): void {
    this.parts = [];
    this.size = 0;
    this.big = undefined;
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.big) {
      this.big.total += part.length;
      const tail = part.length >= LINE_TAIL_BYTES ? part : Buffer.concat([this.big.tail, part]);
      this.big.tail = Buffer.from(tail.subarray(Math.max(0, tail.length - LINE_TAIL_BYTES)));
      return;
    }
    this.parts.push(part);
    this.size += part.length;
    if (this.size <= this.maxLineBytes) return;
    const all = Buffer.concat(this.parts);
    // Copies: the kept slices must not pin the chunks they came from.
    this.big = {
      head: Buffer.from(all.subarray(0, LINE_HEAD_BYTES)),
      tail: Buffer.from(all.subarray(all.length - LINE_TAIL_BYTES)),
      total: all.length,
    };
    this.parts = [];
    this.size = 0;
  }

  private finish(): void {
    const big = this.big;
    if (big) {
      this.big = undefined;
      this.sink.oversized(big);
      return;
    }
    const text = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (text.trim() !== '') this.sink.line(text);
  }
}
