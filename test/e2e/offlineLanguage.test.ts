// End to end (issue #20 wording): after `/lang es` the offline model's scripted replies are
// Spanish too, not only its default reply: a fan-out opens and sums up in Spanish, while the
// prompts it hands its children stay as written.
import { afterEach, describe, expect } from 'vitest';
import { disposeAllTerminals } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

describe('offline model after /lang es', () => {
  ptyTest('a fan-out is announced and summarised in Spanish', PTY_TEST_TIMEOUT, async (sb) => {
    sb.h.env.ARBOR_OFFLINE_CHILD_DELAY_MS = '0';
    const term = await sb.startArbor([], { cols: 120, rows: 30 });
    await send(term, '/lang es');
    await term.waitForText('Escribe un mensaje', 8000, { where: 'screen' });
    await send(term, 'fan out 2: x');
    await term.waitForText('Reparto terminado: éxitos: 2 de 2, fallos: 0.', 15000);
    const all = term.scrollback();
    expect(all).toContain('Repartiendo el trabajo entre 2 subagentes: x');
    expect(all).toContain('1. [ok] Hecho: x (part 1 of 2)');
    expect(all).not.toContain('Fan-out finished');
  });
});
