// End to end: the built bin/arbor.js in a real pty, a loopback OpenAI-compatible server
// streaming `reasoning_content` before its answer. The dim thinking line counts up under
// the live reply, the reasoning text stays off the chat, and the viewer expands it.
import { afterEach, describe, expect } from 'vitest';
import { jsonLines } from '../support/runArbor.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const THOUGHTS = ['Considering ', 'the question ', 'carefully, ', 'weighing ', 'each option ', 'in turn, ', 'QUIETLY.'];

function tokensOn(screen: string): number | undefined {
  const m = /✻ thinking… (\d+) tokens?/.exec(screen);
  return m ? Number(m[1]) : undefined;
}

describe('reasoning in the chat', () => {
  ptyTest(
    'shows a thinking line with a running token count, keeps the reasoning out of the answer, and the viewer expands it',
    PTY_TEST_TIMEOUT,
    async ({ withModel, startArbor }) => {
      // The model holds after the first thought until the test has read the count, and
      // before the answer until it has seen the count grow.
      let readFirst!: () => void;
      let sawGrowth!: () => void;
      const firstRead = new Promise<void>((r) => (readFirst = r));
      const growthSeen = new Promise<void>((r) => (sawGrowth = r));
      await withModel(() => ({
        kind: 'text',
        chunks: ['The answer ', 'is FORTY-TWO.'],
        reasoning: { chunks: THOUGHTS, delayMs: 20, hold: { afterChunks: 1, until: firstRead } },
        hold: { afterChunks: 0, until: growthSeen },
      }));
      const term = await startArbor();
      await send(term, 'what is the answer');

      await term.waitForText(/✻ thinking… \d+ tokens?/, 10000);
      const first = tokensOn(term.screen())!;
      readFirst();
      // The count runs while reasoning streams.
      await term.waitFor((s) => (tokensOn(s) ?? 0) > first, 'the token count to grow', 10000);
      expect(term.screen()).not.toContain('Considering');
      sawGrowth();

      await term.waitForText('The answer is FORTY-TWO.', 10000);
      await term.waitForText(/✻ thought · \d+ tokens? \(Ctrl\+O: the transcript viewer shows it\)/, 5000);
      expect(term.scrollback()).not.toContain('QUIETLY');
      expect(term.scrollback()).not.toContain('thinking…');

      term.press('ctrl-o');
      await term.waitForText('(Enter shows it)', 5000);
      term.press('enter');
      await term.waitForText('Considering the question carefully, weighing each option in turn, QUIETLY.', 5000);
      expect(term.screen()).toContain('The answer is FORTY-TWO.');
    },
  );
});

describe('reasoning headless', () => {
  ptyTest(
    '--output json gives reasoning events apart from the text; text output prints the answer only',
    PROCESS_TEST_TIMEOUT,
    async ({ withModel, arbor }) => {
      await withModel(() => ({ kind: 'text', chunks: ['Alpha ', 'beta.'], reasoning: { chunks: ['Hmm, ', 'let me see.'], delayMs: 5 } }));
      const r = await arbor(['-p', 'hello', '--output', 'json']);
      expect(r.code).toBe(0);
      const events = jsonLines(r.stdout);
      const joined = (type: string) =>
        events
          .filter((e) => e.type === type)
          .map((e) => e.delta as string)
          .join('');
      expect(joined('reasoning')).toBe('Hmm, let me see.');
      expect(joined('text')).toBe('Alpha beta.');
      expect(events[events.length - 1]).toMatchObject({ type: 'final', status: 'completed', text: 'Alpha beta.' });

      const plain = await arbor(['-p', 'hello']);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toBe('Alpha beta.\n');
    },
  );
});
