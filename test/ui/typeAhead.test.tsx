// Type-ahead: Enter while a turn runs queues the message (shown above the input) and it is
// sent, once, as the next turn when the running one ends. ↑ on an empty line takes it back;
// interrupting the turn puts it back into the line unsent.
import { describe, expect, it } from 'vitest';
import { ESC, UP, mount, waitFor } from './harness.js';
import { settle } from './settle.js';
import { itInEachLanguage, resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

/** The app with a turn running ('first') and `text` queued behind it, shown as queued. */
async function withQueued(text: string) {
  const app = await mount();
  await app.submit('first');
  await app.submit(text);
  await waitFor(() => expect(app.frame()).toContain(`queued: ${text}`));
  return app;
}

describe('type-ahead', () => {
  itInEachLanguage(
    'Enter during a turn queues the text, shown as queued, sent once when the turn ends (%s)',
    {
      en: 'queued: second · sent when this turn ends · ↑ takes it back to edit or drop',
      es: 'en cola: second · se envía cuando termine este turno · ↑ lo recupera para editarlo o descartarlo',
    },
    async (shown) => {
      const app = await mount();
      await app.submit('first');
      await app.submit('second');
      expect(app.runtime.calls.startTurn).toEqual(['first']);
      await waitFor(() => expect(app.frame()).toContain(shown));
      // The input is free again for more typing.
      expect(app.frame()).not.toMatch(/› second/);
      app.runtime.endTurn();
      await waitFor(() => expect(app.runtime.calls.startTurn).toEqual(['first', 'second']));
      await waitFor(() => expect(app.frame()).not.toContain('queued:'));
      await settle(() => app.runtime.endTurn());
      expect(app.runtime.calls.startTurn).toEqual(['first', 'second']);
    },
  );

  it('a second Enter joins the queued message: one next turn', async () => {
    const app = await mount();
    await app.submit('first');
    await app.submit('two');
    await app.submit('three');
    await waitFor(() => expect(app.frame()).toContain('queued: two (+1 line)'));
    app.runtime.endTurn();
    await waitFor(() => expect(app.runtime.calls.startTurn).toEqual(['first', 'two\nthree']));
  });

  it('↑ on an empty line takes the queued message back into the input; nothing is sent', async () => {
    const app = await withQueued('oops');
    await app.press(UP);
    await waitFor(() => expect(app.frame()).toMatch(/› oops/));
    expect(app.frame()).not.toContain('queued:');
    await settle(() => app.runtime.endTurn());
    expect(app.runtime.calls.startTurn).toEqual(['first']);
    // Edited and sent by hand.
    await app.submit('!');
    expect(app.runtime.calls.startTurn).toEqual(['first', 'oops!']);
  });

  it('Esc interrupts the turn and puts the queued message back, unsent', async () => {
    const app = await withQueued('later');
    await app.press(ESC);
    expect(app.runtime.calls.interrupt).toBe(1);
    await waitFor(() => expect(app.frame()).toMatch(/› later/));
    expect(app.frame()).toContain('The queued message is back in the input, not sent: Enter sends it.');
    await settle(() => app.runtime.endTurn());
    expect(app.runtime.calls.startTurn).toEqual(['first']);
  });
});
