// Scrollback while /agents covers a running turn, as a person meets it in a real pty: cards
// that settle while the pane is open are not printed above it (nothing of them reaches the
// terminal's buffer), closing the pane reprints the conversation with each of them once, and
// the turn's end leaves every card in scrollback once, in order.
import { afterEach, expect } from 'vitest';
import type { LoopbackReply } from '../support/loopbackModel.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';
import { firstUser, messagesOf, textOf } from '../support/wireBody.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const JOBS = 6;
const WIDE = { cols: 160, rows: 40 };
const CONFIG = `\n[runtime_profiles.default]\nparallel_tools = true\n[delegation]\nmax_children_per_agent = ${JOBS}\n`;

/** How often job n's card line is in `text` ("job 1" not counting "job 10"). */
const cardsOf = (text: string, n: number) => text.match(new RegExp(`spawn_subagent · job ${n}(?!\\d)`, 'g'))?.length ?? 0;

ptyTest('cards settled while /agents is open reach scrollback once, when it closes', PTY_TEST_TIMEOUT * 2, async (sb) => {
  // Each child answers when its job is released.
  const releases = new Map<string, () => void>();
  const held = (job: string) => new Promise<void>((r) => releases.set(job, r));
  const gates = new Map(Array.from({ length: JOBS }, (_, i) => [`job ${i + 1}`, held(`job ${i + 1}`)]));
  await sb.withModel(async ({ body }): Promise<LoopbackReply> => {
    const first = firstUser(body);
    if (gates.has(first)) {
      await gates.get(first);
      return { kind: 'text', chunks: [`finished ${first}`] };
    }
    const results = messagesOf(body).filter((m: { role?: string }) => m.role === 'tool');
    if (results.length) return { kind: 'text', chunks: [`root collected ${results.length}: ${textOf(results.at(-1)?.content)}`] };
    return {
      kind: 'tools',
      calls: Array.from({ length: JOBS }, (_, i) => ({ id: `s${i}`, name: 'spawn_subagent', args: { prompt: `job ${i + 1}` } })),
    };
  }, CONFIG);
  const term = await sb.startArbor([], WIDE);
  await send(term, 'six held jobs');
  await term.waitForText(`spawn_subagent · job ${JOBS}`, 15000);

  await send(term, '/agents');
  await term.waitFor((s) => s.split('\n').some((l) => l.startsWith('Agents ·') && /6 running/.test(l)), 'the pane with six running', 10000);
  // All but the last settle while the pane is open.
  for (let n = 1; n < JOBS; n++) releases.get(`job ${n}`)?.();
  await term.waitFor(
    (s) => s.split('\n').some((l) => l.startsWith('Agents ·') && /1 running · .*5 finished/.test(l)),
    'the pane with five finished',
    15000,
  );
  // Nothing of the settled cards was printed: not above the pane, not into the buffer.
  await term.flush();
  for (let n = 1; n < JOBS; n++) expect(cardsOf(term.scrollback(), n), `job ${n} while the pane is open`).toBe(0);

  term.press('esc');
  await term.waitForText('Type a message', 10000, { where: 'screen' });
  await term.waitFor((_, all) => cardsOf(all, 1) === 1, 'the first card back in scrollback', 10000);
  for (let n = 1; n <= JOBS; n++) expect(cardsOf(term.scrollback(), n), `job ${n} after the pane closed`).toBe(1);

  releases.get(`job ${JOBS}`)?.();
  await term.waitForText(`root collected ${JOBS}: finished job ${JOBS}`, 15000);
  await term.flush();
  const all = term.scrollback();
  const at = Array.from({ length: JOBS }, (_, i) => all.indexOf(`spawn_subagent · job ${i + 1}`));
  for (let n = 1; n <= JOBS; n++) expect(cardsOf(all, n), `job ${n} after the turn`).toBe(1);
  expect(at).toEqual([...at].sort((a, b) => a - b));
});
