// One test's world for the pty suites: temp ARBOR_HOME/HOME/cwd, optionally a loopback
// model, and the terminals it starts; all torn down when the test finishes.
import { it, type TestContext } from 'vitest';
import { startLoopbackModel, type LoopbackIncoming, type LoopbackModel, type LoopbackReply } from '../support/loopbackModel.js';
import { fakeProviderConfig, tempArborHome, writeConfig, type ArborHome } from '../support/tempHome.js';
import { runArbor } from '../support/runArbor.js';
import { startTerminal, type Term } from '../support/terminal.js';

// The input line's placeholder: once it is on screen, arbor is ready for typing.
export const READY = 'Type a message';
export const START_TIMEOUT = 15000;
// Machines are 2-core and shared: a pty test gets room for a slow start, the two-phase
// quit/resume test for two.
export const PTY_TEST_TIMEOUT = 40000;
// Child-process tests run concurrently, so under load each one waits for CPU.
export const PROCESS_TEST_TIMEOUT = 40000;

/** One test's world: temp ARBOR_HOME/HOME/cwd, optionally a loopback model, and the
 * terminals it starts; everything is torn down when the test finishes, pass or fail, so
 * tests can also run concurrently. */
export interface Sandbox {
  h: ArborHome;
  /** Starts a loopback model and writes a config pointing `main` at it, plus `extraToml`. */
  withModel(respond: (req: LoopbackIncoming) => LoopbackReply | Promise<LoopbackReply>, extraToml?: string): Promise<LoopbackModel>;
  arbor(args: string[], input?: string): ReturnType<typeof runArbor>;
  startArbor(args?: string[], size?: { cols: number; rows: number }): Promise<Term>;
}

export function sandbox(ctx: TestContext): Sandbox {
  const h = tempArborHome();
  const models: LoopbackModel[] = [];
  const terms: Term[] = [];
  ctx.onTestFinished(async () => {
    await Promise.all(terms.map((t) => t.dispose()));
    await Promise.all(models.map((m) => m.close()));
    h.cleanup();
  });
  return {
    h,
    async withModel(respond, extraToml = '') {
      const model = await startLoopbackModel({ dialect: 'openai', respond });
      models.push(model);
      writeConfig(h.dir, fakeProviderConfig(model.url) + extraToml);
      return model;
    },
    arbor: (args, input) => runArbor(args, { env: h.env, cwd: h.dir, input }),
    async startArbor(args = [], size = { cols: 100, rows: 30 }) {
      const term = await startTerminal({ args, env: h.env, cwd: h.dir, ...size });
      terms.push(term);
      await term.waitForText(READY, START_TIMEOUT);
      await term.waitForRawMode(START_TIMEOUT);
      return term;
    },
  };
}

/** A pty test with its own sandbox: `it(name, { timeout }, ...)` that hands the body a fresh
 * sandbox (and the test context, for what else it must tear down or skip). */
export function ptyTest(name: string, timeout: number, body: (sb: Sandbox, ctx: TestContext) => Promise<void>): void {
  it(name, { timeout }, (ctx) => body(sandbox(ctx), ctx));
}

/** A model whose first reply streams `words` words ("w0 w1 …") 100 ms apart, long enough to
 * interrupt or kill mid-reply; every later request is answered `then` at once. */
export function slowFirstReply(words: number, then: string): (req: LoopbackIncoming) => LoopbackReply {
  return (req) =>
    req.index === 0
      ? { kind: 'text', chunks: Array.from({ length: words }, (_, i) => `w${i} `), delayMs: 100 }
      : { kind: 'text', chunks: [then] };
}

/** Types a message, waits until it is visible, then presses Enter. */
export async function send(term: Term, text: string): Promise<void> {
  term.type(text);
  await term.waitForText(text, 5000, { where: 'screen' });
  term.press('enter');
}

/** The line arbor prints on quitting a session that has turns; its group is the session id. */
export const RESUME_HINT = /Resume this session with: arbor --resume (\d{8}-\d{6}-[0-9a-f]{6})/;

/** Quits at the prompt with Ctrl+D and returns the session id the resume hint names. */
export async function quit(term: Term): Promise<string> {
  await term.waitForText(READY, 8000, { where: 'screen' });
  term.press('ctrl-d');
  await term.waitForExit(10000);
  await term.flush();
  const m = term.scrollback().match(RESUME_HINT);
  if (!m) throw new Error(`no resume hint after quitting:\n${term.scrollback()}`);
  return m[1];
}
