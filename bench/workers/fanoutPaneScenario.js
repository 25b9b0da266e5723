// fanout-pane (agents-pane.bench.js, bench/lib/fanoutPane.js): the `fanout` scenario for an
// interactive arbor: the root is the session whose last user message is ROOT_PROMPT, after
// a warm-up turn (answered FANOUT_PANE_WARMUP_ANSWER), and it gets
// `children` spawn_subagent calls; each child answers after `childDelayMs`; the root's
// request with the results gets a final text and the check that every result came back to
// its own call. Events: fanoutInFlight once every child's request is in, fanoutEnded once
// every child's answer has ended.
import { performance } from 'node:perf_hooks';
import { CHILD_PROMPT_RE, ROOT_PROMPT, checkResults, childAnswer, spawnChildren } from '../lib/fanoutScript.js';
import { firstUserText, lastUserText, toolResults } from '../lib/messages.js';
import { distUrl } from '../lib/paths.js';

export const FANOUT_PANE_WARMUP = 'Warm up before the fan-out.';
export const FANOUT_PANE_WARMUP_ANSWER = 'warm and ready';

const now = () => performance.timeOrigin + performance.now();
const { startLoopbackModel } = await import(distUrl('support/loopbackModel.js'));

export async function openFanoutPane({ children, childDelayMs }) {
  let childReqs = 0;
  let childrenEnded = 0;
  let rootCalls = 0;
  let resultCheck;
  const model = await startLoopbackModel({
    dialect: 'openai',
    respond(req) {
      const child = CHILD_PROMPT_RE.exec(firstUserText(req.body));
      if (!child && lastUserText(req.body) === ROOT_PROMPT) {
        rootCalls++;
        const results = toolResults(req.body);
        if (results.length === 0) return spawnChildren(children);
        resultCheck = checkResults(results, children);
        return { kind: 'text', chunks: ['All ', 'children ', 'answered.'] };
      }
      // The warm-up turn before the fan-out (its last user message is FANOUT_PANE_WARMUP).
      if (!child) return { kind: 'text', chunks: [FANOUT_PANE_WARMUP_ANSWER] };
      void model.requests[req.index].ended.then(() => {
        if (++childrenEnded === children) process.send?.({ event: 'fanoutEnded', at: now() });
      });
      if (++childReqs === children) process.send?.({ event: 'fanoutInFlight', at: now() });
      return { kind: 'text', chunks: [childAnswer(Number(child[1]))], delayMs: childDelayMs };
    },
  });
  return { url: model.url, stats: () => ({ rootCalls, childReqs, childrenEnded, resultCheck }), close: () => model.close() };
}
