// Polls a condition instead of sleeping for a guessed time: the wait ends the moment the
// thing it waits for is true, and fails naming it when it never comes.
import { readFileSync } from 'node:fs';

/** Polls `cond` every 10 ms until it holds; fails naming `what` after `ms`. */
export async function until(cond: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits until `path` holds some text (a pid file a command wrote); resolves with it, trimmed. */
export async function fileWritten(path: string, ms = 15000): Promise<string> {
  let text = '';
  const read = () => {
    try {
      text = readFileSync(path, 'utf8').trim();
    } catch {
      text = '';
    }
    return text !== '';
  };
  await until(read, ms, `${path} to be written`);
  return text;
}
