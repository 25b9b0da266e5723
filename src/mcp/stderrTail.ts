// The last lines a stdio server wrote to stderr, kept so a failed server can say why.
// Bounded: a chatty server costs at most TAIL_BYTES.

const TAIL_BYTES = 2048;
const TAIL_LINES = 8;

export class StderrTail {
  private buf = '';

  push(chunk: Buffer | string): void {
    this.buf += chunk.toString();
    if (this.buf.length > TAIL_BYTES * 2) this.buf = this.buf.slice(-TAIL_BYTES);
  }

  clear(): void {
    this.buf = '';
  }

  /** The last few non-empty lines, at most TAIL_BYTES. */
  text(): string {
    const lines = this.buf
      .slice(-TAIL_BYTES)
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l !== '');
    return lines.slice(-TAIL_LINES).join('\n');
  }
}
