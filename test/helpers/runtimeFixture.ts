// A runtime wired to the real openai-compatible provider, pointed at a scripted loopback
// model server. Runtime tests use this instead of mocking our own provider interface.
import { onTestFinished, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFromTexts } from '../../src/config/load.js';
import { createRuntime, type CreateRuntimeOptions, type Runtime } from '../../src/runtime/runtime.js';
import type { Run } from '../../src/model/run.js';
import { firstUser, toolResults } from '../support/wireBody.js';
import {
  startLoopbackModel,
  type LoopbackDialect,
  type LoopbackIncoming,
  type LoopbackModel,
  type LoopbackReply,
} from '../support/loopbackModel.js';

export interface Fixture {
  server: LoopbackModel;
  runtime: Runtime;
  workdir: string;
  cleanup(): Promise<void>;
}

export const baseToml = (url: string, extra = '') => `
default_agent = "main"
[providers.fake]
type = "openai-compatible"
base_url = "${url}"
model = "fake-model"
[agents.main]
provider = "fake"
system_prompt = "You are main."
${extra}
`;

/** A root that may run `n` children at once and have `n` of its own, tools in parallel. */
export const wideToml = (n: number) => (url: string) =>
  baseToml(
    url,
    `runtime_profile = "wide"
[runtime_profiles.wide]
parallel_tools = true
[delegation]
max_concurrent = ${n}
max_children_per_agent = ${n}
`,
  );

export async function makeFixture(opts: {
  respond: (req: LoopbackIncoming) => LoopbackReply | Promise<LoopbackReply>;
  toml?: (url: string) => string;
  runtime?: Partial<CreateRuntimeOptions>;
  /** The server's wire format (default OpenAI); the config's provider type must match. */
  dialect?: LoopbackDialect;
}): Promise<Fixture> {
  const server = await startLoopbackModel({ dialect: opts.dialect ?? 'openai', respond: opts.respond });
  const workdir = mkdtempSync(join(tmpdir(), 'arbor-rt-'));
  const text = (opts.toml ?? ((u: string) => baseToml(u)))(server.url);
  const loaded = loadConfigFromTexts([{ text, file: join(workdir, 'config.toml') }], { ARBOR_RETRY_BASE_MS: '5' });
  const runtime = createRuntime({
    config: loaded.config,
    cwd: workdir,
    interactive: false,
    env: { ARBOR_RETRY_BASE_MS: '5' },
    ...opts.runtime,
  });
  return cleanedUpAfterTest({
    server,
    runtime,
    workdir,
    async cleanup() {
      await runtime.dispose();
      await server.close();
      rmSync(workdir, { recursive: true, force: true });
    },
  });
}

/** Cleans `fixture` up when the current test ends, once however often `cleanup` is called,
 * so a test file needs no afterEach for it. Made outside a test (beforeAll), it is the
 * caller's to clean up. */
export function cleanedUpAfterTest<T extends { cleanup(): Promise<void> }>(fixture: T): T {
  const cleanup = fixture.cleanup.bind(fixture);
  let done: Promise<void> | undefined;
  fixture.cleanup = () => (done ??= cleanup());
  try {
    onTestFinished(() => fixture.cleanup());
  } catch {
    // Not inside a test.
  }
  return fixture;
}

/** The first user message: how a scripted server tells children from the root. */
export const firstUserText = firstUser;
/** The tool results the model was sent, oldest first. */
export const toolMessages = toolResults;

export const text = (s: string, delayMs?: number): LoopbackReply => ({ kind: 'text', chunks: [s], delayMs });
export const calls = (...c: Array<{ id?: string; name: string; args: object | string }>): LoopbackReply => ({ kind: 'tools', calls: c });

export { until } from '../support/until.js';

/**
 * A clock the test moves: timers and Date are fake but still follow real time (so sockets,
 * servers and polling go on as usual), and `passTime` jumps ahead at once. For tests whose
 * subject is a duration (a budget or timeout that a pause must not spend), so they do not
 * sleep through it. The real clock is back when the test ends.
 */
export function useTestClock(): { passTime(ms: number): Promise<void> } {
  onTestFinished(() => {
    vi.useRealTimers();
  });
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    shouldAdvanceTime: true,
  });
  return {
    async passTime(ms: number) {
      await vi.advanceTimersByTimeAsync(ms);
    },
  };
}

/**
 * A barrier for "nothing more happens" checks, instead of a wait: every request the server
 * got has ended and the event loop has gone round after it with no new request arriving.
 * A run held at its pause gate awaits resume() and nothing else, so a request it should
 * not make would follow the last reply it got; this waits on those replies, not on a time.
 */
export async function serverQuiet(server: LoopbackModel): Promise<void> {
  for (;;) {
    const seen = server.requests.length;
    await Promise.all(server.requests.map((r) => r.ended));
    await new Promise((r) => setImmediate(r));
    if (server.requests.length === seen) return;
  }
}

/** The fixture's runs other than the root (or of one `kind`), in creation order. */
export function childRuns(f: Pick<Fixture, 'runtime'>, kind?: Run['kind']): Run[] {
  return f.runtime.store
    .getState()
    .runs.values()
    .filter((r) => (kind ? r.kind === kind : r.kind !== 'root'));
}

/** A reply the scripted server holds until the test says so: `held.then(() => reply)` in a
 * responder, `release()` once the test has done what must land mid call. */
export function heldReply(): { held: Promise<void>; release(): void } {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  return { held, release };
}
