// While a pane covers the chat during a turn, settled cards are not printed to scrollback
// (each print was a whole frame drawn at once, above a pane that opened on a clean screen);
// closing the pane reprints the scrollback with all of them, in order, each once. A turn
// that ends with the pane open commits as before.
import { describe, expect, it } from 'vitest';
import { FakeRuntime } from './fakeRuntime.js';
import { KEYS, waitFor } from './harness.js';
import { mountApp } from './agents/fixtures.js';
import { resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

const CARDS = 12;
const count = (text: string, part: string) => text.split(part).length - 1;

async function turnWithCards() {
  const rt = new FakeRuntime();
  const app = await mountApp(rt);
  await app.submit('fan out');
  await waitFor(() => expect(app.frame()).toContain('› fan out'));
  const ids = Array.from({ length: CARDS }, (_, i) => rt.addTool('shell', { command: `echo card-${i}-end` }));
  await waitFor(() => expect(app.frame()).toContain(`card-${CARDS - 1}-end`));
  return { rt, app, ids };
}

describe('scrollback while a pane is open during a turn', () => {
  it('prints nothing while the pane is open; closing it prints every settled card once, in order', async () => {
    const { rt, app, ids } = await turnWithCards();
    await app.press(KEYS.CTRL_T);
    await waitFor(() => expect(app.frame()).toContain('x kill'));
    const writesBefore = app.writes().length;
    for (const id of ids) rt.setToolStatus(id, 'ok', 'done');
    // The live rows above the pane show the newest cards, settled now.
    await waitFor(() => expect(app.frame()).toMatch(/✓ shell echo card-11-end/));
    // Nothing of the oldest cards was written while the pane was open: not to scrollback,
    // and they are too old for the live rows.
    const whileOpen = app.writes().slice(writesBefore).join('');
    expect(whileOpen).not.toContain('card-0-end');
    expect(whileOpen).not.toContain('card-5-end');
    await app.press(KEYS.ESC);
    await waitFor(() => expect(app.frame()).toContain('Type a message'));
    await waitFor(() => expect(app.frame()).toContain('card-0-end'));
    const frame = app.frame();
    const at = Array.from({ length: CARDS }, (_, i) => frame.indexOf(`card-${i}-end`));
    for (let i = 0; i < CARDS; i++) expect(count(frame, `card-${i}-end`), `card ${i}`).toBe(1);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it('a turn that ends with the pane open goes to scrollback at once, as before', async () => {
    const { rt, app, ids } = await turnWithCards();
    await app.press(KEYS.CTRL_T);
    await waitFor(() => expect(app.frame()).toContain('x kill'));
    for (const id of ids) rt.setToolStatus(id, 'ok', 'done');
    rt.endTurn();
    await waitFor(() => expect(app.frame()).toContain('card-0-end'));
    // Still in the pane: the cards were printed above it.
    expect(app.frame()).toContain('x kill');
    for (let i = 0; i < CARDS; i++) expect(count(app.frame(), `card-${i}-end`), `card ${i}`).toBe(1);
  });
});
