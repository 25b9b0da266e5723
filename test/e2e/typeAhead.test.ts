// Type-ahead in a real terminal: a message sent while the model is still answering is
// queued on screen and becomes the next user turn, exactly once, when the first one ends.
import { afterEach, describe, expect } from 'vitest';
import { lastUserText } from '../support/loopbackModel.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, READY, send, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

describe('type-ahead', () => {
  ptyTest('text sent during a slow turn is queued, then sent once as the next turn', PTY_TEST_TIMEOUT, async (sb) => {
    // The first reply is held until the test releases it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const m = await sb.withModel(async (req) => {
      const said = lastUserText(req.body);
      if (req.index === 0) await held;
      return { kind: 'text', chunks: [`reply to ${said}.`] };
    });
    const term = await sb.startArbor();
    await send(term, 'first question');
    await term.waitFor(() => m.requests.length === 1, 'the first request', 8000);

    await send(term, 'follow-up typed early');
    await term.waitForText('queued: follow-up typed early', 5000, { where: 'screen' });
    // Nothing went to the model while the first turn runs.
    expect(m.requests.length).toBe(1);

    release();
    await term.waitForText('reply to follow-up typed early.', 10000);
    await term.waitForText(READY, 8000, { where: 'screen' });
    expect(term.screen()).not.toContain('queued:');
    // One more turn typed normally: the queued text was sent once, in order.
    await send(term, 'third one');
    await term.waitForText('reply to third one.', 10000);
    expect(m.requests.map((r) => lastUserText(r.body))).toEqual(['first question', 'follow-up typed early', 'third one']);
  });
});
