// A parallel batch of tool calls starts as the model's reply streams them
// (runtime/streamedCalls.ts): the loopback model holds the rest of its reply until the
// first child's request has arrived, so the batch must start before the reply ends. Every
// result still goes back to its own call, in order, once; a reply cut off, a kill and a
// pause while it is still streaming reach every call, started or not.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { isTerminal } from '../../../src/model/run.js';
import { startsAsStreamed } from '../../../src/runtime/streamedCalls.js';
import type { LoopbackReply } from '../../support/loopbackModel.js';
import { expectAllAnswered } from '../support/spawnScript.js';
import { baseToml, wideToml, firstUserText, makeFixture, text, toolMessages, until, type Fixture } from '../../helpers/runtimeFixture.js';
import { messagesWithRole } from '../../support/wireRequest.js';

let fx: Fixture | undefined;
let release: (() => void) | undefined;
afterEach(async () => {
  release?.();
  release = undefined;
  await fx?.cleanup();
  fx = undefined;
});

function signal() {
  let fire!: () => void;
  const fired = new Promise<void>((r) => (fire = r));
  return { fire, fired };
}

/** The root's reply: n spawn calls, of which the first `afterCalls` are sent at once and the
 * rest once `until` settles (a rejection cuts the reply off there). */
function heldReply(n: number, afterCalls: number, until: Promise<unknown>): LoopbackReply {
  return {
    kind: 'tools',
    calls: Array.from({ length: n }, (_, i) => ({ id: `call_${i}`, name: 'spawn_subagent', args: { prompt: `child ${i}` } })),
    hold: { afterCalls, until },
  };
}

/** The root streams `n` calls to children and holds the rest of its reply after
 * `afterCalls` until `rest`; each child, the first of which fires `firstChild`, answers
 * "answer <n>" (or hangs, with `hang`). */
function streamedRoot(
  n: number,
  firstChild: { fire(): void },
  rest: Promise<unknown>,
  { afterCalls = 2, hang = false }: { afterCalls?: number; hang?: boolean } = {},
) {
  return ({ body }: { body: unknown }): LoopbackReply => {
    const child = childNumber(body);
    if (child !== undefined) {
      firstChild.fire();
      return hang ? { kind: 'hang' } : text(`answer ${child}`);
    }
    if (toolMessages(body).length) return text('root done');
    return heldReply(n, afterCalls, rest);
  };
}

/** A turn whose root streams `n` calls and holds the rest of its reply until `rest` fires
 * (at the latest when the test ends); resolves once the first child's request has come. */
async function startStreaming(n: number, opts?: { hang?: boolean }) {
  const firstChild = signal();
  const rest = signal();
  release = rest.fire;
  const f = (fx = await makeFixture({ toml: wideToml(n), respond: streamedRoot(n, firstChild, rest.fired, opts) }));
  const turn = f.runtime.startTurn('go');
  await firstChild.fired;
  return { f, turn, rest };
}

const childNumber = (body: unknown) => /^child (\d+)$/.exec(firstUserText(body))?.[1];

const children = (f: Fixture) =>
  f.runtime.store
    .getState()
    .runs.values()
    .filter((r) => r.kind === 'subagent');
const root = (f: Fixture) =>
  f.runtime.store
    .getState()
    .runs.values()
    .find((r) => r.kind === 'root')!;

describe('a parallel batch started while the reply streams it', () => {
  it('starts its first child before the reply ends, and returns every result to its own call, in order, once', async () => {
    const N = 40;
    const firstChild = signal();
    fx = await makeFixture({
      toml: wideToml(N),
      // The rest of the reply waits for a child: a batch started only after the reply
      // ended would never be asked for it (the test would time out).
      respond: streamedRoot(N, firstChild, firstChild.fired),
    });
    await fx.runtime.startTurn('go');
    const results = expectAllAnswered(fx, N);
    expect(results.map((r) => r.tool_call_id)).toEqual(Array.from({ length: N }, (_, i) => `call_${i}`));
    // One request per child, two for the root: no call started twice.
    expect(fx.server.requests).toHaveLength(N + 2);
    const transcript = fx.runtime.store.getState().transcript.filter((i) => i.kind === 'tool');
    expect(transcript.map((i) => (i.kind === 'tool' ? i.callId : ''))).toEqual(Array.from({ length: N }, (_, i) => `call_${i}`));
  }, 60_000);

  it('a reply cut off after its first calls started: those children are stopped and waited for, and the turn fails', async () => {
    const N = 10;
    const firstChild = signal();
    fx = await makeFixture({
      toml: wideToml(N),
      respond: streamedRoot(
        N,
        firstChild,
        firstChild.fired.then(() => {
          throw new Error('the connection drops');
        }),
        { afterCalls: 3, hang: true },
      ),
    });
    await fx.runtime.startTurn('go');
    expect(root(fx).status).toBe('failed');
    const kids = children(fx);
    expect(kids.length).toBeGreaterThan(0);
    expect(kids.length).toBeLessThan(N);
    expect(kids.every((r) => isTerminal(r.status) && r.status !== 'completed')).toBe(true);
    // Every child's request was closed by the client: none is left streaming.
    const childRequests = fx.server.requests.filter((r) => childNumber(r.body) !== undefined);
    expect(childRequests.length).toBe(kids.length);
    expect(await Promise.all(childRequests.map((r) => r.ended))).toEqual(childRequests.map(() => 'client_closed'));
  }, 60_000);

  it('a reply cut off after a child answered: the next request still carries that call and its answer', async () => {
    const N = 6;
    let rootRequests = 0;
    fx = await makeFixture({
      toml: wideToml(N),
      respond: ({ body }) => {
        const n = childNumber(body);
        if (n !== undefined) return text(`answer ${n}`);
        if (rootRequests++ > 0) return text('root again');
        // The reply drops once a child it started has answered: that child's work is done.
        const answered = until(() => children(fx!).some((r) => r.status === 'completed'), 30_000, 'a child answered');
        return heldReply(
          N,
          2,
          answered.then(() => {
            throw new Error('the connection drops');
          }),
        );
      },
    });
    await fx.runtime.startTurn('go');
    expect(root(fx).status).toBe('failed');
    const answered = children(fx).filter((r) => r.status === 'completed');
    expect(answered.length).toBeGreaterThan(0);
    await fx.runtime.startTurn('again');
    const body = fx.server.requests.at(-1)!.body;
    const asked = messagesWithRole(body, 'assistant').flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    const results = toolMessages(body);
    // Every call the cut reply started is there, each with its result after it.
    expect(asked.length).toBe(children(fx).length);
    expect(results.map((r) => r.tool_call_id)).toEqual(asked);
    expect(results.filter((r) => /^answer \d+$/.test(r.content))).toHaveLength(answered.length);
  }, 60_000);

  it('a kill of the root while the reply still streams ends every child and the turn; no call after it starts one', async () => {
    const N = 30;
    const { f, turn, rest } = await startStreaming(N, { hang: true });
    f.runtime.kill(root(f).id);
    await turn;
    expect(root(f).status).toBe('killed');
    const kids = children(f);
    expect(kids.length).toBeLessThan(N);
    expect(kids.every((r) => isTerminal(r.status))).toBe(true);
    const childRequests = f.server.requests.filter((r) => childNumber(r.body) !== undefined);
    expect(childRequests.length).toBe(kids.length);
    // The rest of the reply, if it still comes, starts nothing.
    rest.fire();
    expect(children(f)).toHaveLength(kids.length);
  }, 60_000);

  it('a pause of the root while the reply still streams holds the calls that arrive; the resume runs them all, in order', async () => {
    const N = 20;
    const { f, turn, rest } = await startStreaming(N);
    const rootId = root(f).id;
    f.runtime.pause(rootId);
    rest.fire();
    // The whole reply has been read and the root holds at its gate.
    await f.server.requests[0].ended;
    await until(() => root(f).status === 'paused', 30_000, 'the root held');
    // Held means held: the calls that came in the rest of the reply created no child.
    expect(children(f)).toHaveLength(1);
    f.runtime.resume(rootId);
    await turn;
    expectAllAnswered(f, N);
  }, 60_000);
});

describe('which batches start as the reply streams them', () => {
  const config = (extra: string) =>
    loadConfigFromTexts([{ text: baseToml('http://127.0.0.1:9/v1', extra), file: '/tmp/arbor-streamed-starts.toml' }], {}).config;

  it('a parallel batch, unless the fan-out confirmation or a guard counting runs or spawns must see it whole', () => {
    expect(startsAsStreamed(config(''), true, false)).toBe(true);
    expect(startsAsStreamed(config(''), false, false)).toBe(false);
    expect(startsAsStreamed(config(''), true, true)).toBe(false);
    expect(startsAsStreamed(config('[delegation.runaway]\nmax_tree_size = 50\n'), true, false)).toBe(false);
    expect(startsAsStreamed(config('[delegation.runaway]\nmax_spawns_per_minute = 30\n'), true, false)).toBe(false);
    expect(startsAsStreamed(config('[delegation.runaway]\nmax_tree_tokens = 100000\n'), true, false)).toBe(true);
  });
});
