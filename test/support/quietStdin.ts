// A stdin for Ink that is a TTY and never reads the real keyboard: `write(data)` hands Ink
// one chunk as if it had been typed. UI tests and the in-process benchmarks render with it.
import { EventEmitter } from 'node:events';

export class QuietStdin extends EventEmitter {
  isTTY = true;
  /** The chunk Ink reads next, as typed keys would arrive. */
  private data: string | null = null;
  write(data: string) {
    this.data = data;
    this.emit('readable');
  }
  read() {
    const d = this.data;
    this.data = null;
    return d;
  }
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}
