// The scripted loopback model most runtime tests need: a root that spawns subagents in one
// reply, children told apart by their prompt (the first user message), and the root's
// answer once its children's results are back. Each test file used to write this
// three-branch responder again (20-odd copies); a test now states only what differs.
import type { LoopbackIncoming, LoopbackReply } from '../../support/loopbackModel.js';
import { expect } from 'vitest';
import { calls, childRuns, firstUserText, text, toolMessages, type Fixture } from '../../helpers/runtimeFixture.js';

type Reply = LoopbackReply | Promise<LoopbackReply>;

export interface SpawnScript {
  /** The children's prompts, spawned in this order by the root's first reply. */
  prompts: readonly string[];
  /** A child's reply, by its prompt. */
  child: (prompt: string, req: LoopbackIncoming) => Reply;
  /** The root's reply once it has tool results (default: the text `root done`). */
  done?: string | ((req: LoopbackIncoming) => Reply);
  /** The id of the spawn call for the i-th prompt (default `s<i>`). */
  id?: (i: number) => string;
}

export function spawnScript(s: SpawnScript): (req: LoopbackIncoming) => Reply {
  const prompts = new Set(s.prompts);
  return (req) => {
    const first = firstUserText(req.body);
    if (prompts.has(first)) return s.child(first, req);
    if (toolMessages(req.body).length) return typeof s.done === 'function' ? s.done(req) : text(s.done ?? 'root done');
    return calls(...s.prompts.map((prompt, i) => ({ id: s.id?.(i) ?? `s${i}`, name: 'spawn_subagent', args: { prompt } })));
  };
}

/** `job 0` … `job <n-1>` (or from `from`): the usual children's prompts. */
export const jobs = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `job ${i + from}`);

/** One child with prompt `prompt`, spawned by call `id`; the root then says `done`. */
export const spawnOne = (prompt: string, child: SpawnScript['child'], done?: SpawnScript['done'], id = 's0') =>
  spawnScript({ prompts: [prompt], child, done, id: () => id });

/** A fan-out of `n` children that each answer `answer <i>` has ended well: every child
 * completed and the root's last request carries every answer, in call order. Returns those
 * tool results for the test's own checks. */
export function expectAllAnswered(f: Pick<Fixture, 'runtime' | 'server'>, n: number) {
  const kids = childRuns(f, 'subagent');
  expect(kids).toHaveLength(n);
  expect(kids.every((r) => r.status === 'completed')).toBe(true);
  const results = toolMessages(f.server.requests.at(-1)!.body);
  expect(results.map((r) => r.content)).toEqual(Array.from({ length: n }, (_, i) => `answer ${i}`));
  return results;
}

/** A child that makes `first` (tool calls) and, once it has their results, answers `answer`. */
export const toolThenAnswer =
  (first: LoopbackReply, answer: string): SpawnScript['child'] =>
  (_, { body }) =>
    toolMessages(body).length ? text(answer) : first;

/** Whether the child given `prompt` has sent its first request: a barrier before the test
 * clock is moved through that child's time. */
export const childAsked = (f: Pick<Fixture, 'server'>, prompt: string) => () =>
  f.server.requests.some((r) => firstUserText(r.body) === prompt);
