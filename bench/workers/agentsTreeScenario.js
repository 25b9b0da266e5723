// agents-tree (the agents-pane benchmark): a three-level delegation tree. The root turn
// delegates to `mids` mid agents at once, each mid delegates to `leavesPerMid` leaf agents
// at once, and every leaf streams a short word every `leafChunkMs`, so all of them stay
// live and keep updating until they are killed. A warm-up prompt gets a plain answer.
import { performance } from 'node:perf_hooks';
import { AGENTS_BENCH } from './agents-tree.js';
import { firstUserText, lastUserText } from '../lib/messages.js';
import { distUrl } from '../lib/paths.js';

const now = () => performance.timeOrigin + performance.now();
const { startLoopbackModel } = await import(distUrl('support/loopbackModel.js'));

function roleOf(body) {
  const first = firstUserText(body);
  if (AGENTS_BENCH.midRe.test(first)) return 'mid';
  if (AGENTS_BENCH.leafRe.test(first)) return 'leaf';
  const last = lastUserText(body);
  if (last === AGENTS_BENCH.rootPrompt) return 'root';
  if (last === AGENTS_BENCH.warmupPrompt) return 'warmup';
  return 'other';
}

const hasToolResults = (body) => (body?.messages ?? []).some((m) => m.role === 'tool');

export async function openAgentsTree({ mids, leavesPerMid, leafChunkMs, leafChunks }) {
  /** One record per request: role, arrival, end (when the response finished or the client went away). */
  const requests = [];
  const open = { root: 0, mid: 0, leaf: 0, warmup: 0 };
  const model = await startLoopbackModel({
    dialect: 'openai',
    respond(req) {
      const first = firstUserText(req.body);
      const role = roleOf(req.body);
      const rec = { role, arriveAt: now(), endAt: undefined, outcome: 'pending', withResults: hasToolResults(req.body) };
      requests.push(rec);
      if (role in open) open[role]++;
      void model.requests[req.index].ended.then((outcome) => {
        rec.endAt = now();
        rec.outcome = outcome;
        if (role in open) open[role]--;
      });
      if (role === 'warmup') return { kind: 'text', chunks: [AGENTS_BENCH.warmupAnswer] };
      if (role === 'root' && !rec.withResults) {
        return {
          kind: 'tools',
          calls: Array.from({ length: mids }, (_, i) => ({
            id: `mid_${i}`,
            name: 'delegate',
            args: { agent: 'mid', prompt: AGENTS_BENCH.midPrompt(i) },
          })),
        };
      }
      if (role === 'mid' && !rec.withResults) {
        const m = Number(AGENTS_BENCH.midRe.exec(first)[1]);
        return {
          kind: 'tools',
          calls: Array.from({ length: leavesPerMid }, (_, j) => ({
            id: `leaf_${m}_${j}`,
            name: 'delegate',
            args: { agent: 'leaf', prompt: AGENTS_BENCH.leafPrompt(m, j) },
          })),
        };
      }
      if (role === 'leaf') return { kind: 'text', chunks: Array.from({ length: leafChunks }, (_, k) => `w${k} `), delayMs: leafChunkMs };
      // A parent whose children all came back (only if they were allowed to finish).
      return { kind: 'text', chunks: ['tree done'] };
    },
  });

  return {
    url: model.url,
    stats() {
      const by = (role) => requests.filter((r) => r.role === role);
      const leaves = by('leaf');
      const mids_ = by('mid');
      const ended = (list) => list.filter((r) => r.endAt !== undefined);
      return {
        open: { ...open },
        counts: { root: by('root').length, mid: mids_.length, leaf: leaves.length, other: by('other').length },
        /** Latest end among every request of the tree (root, mids, leaves) that has ended. */
        lastTreeEndAt: Math.max(0, ...ended([...by('root'), ...mids_, ...leaves]).map((r) => r.endAt)),
        treeEnded: [...by('root'), ...mids_, ...leaves].every((r) => r.endAt !== undefined),
        outcomes: [...mids_, ...leaves].reduce((acc, r) => ((acc[r.outcome] = (acc[r.outcome] ?? 0) + 1), acc), {}),
        lastLeafArriveAt: Math.max(0, ...leaves.map((r) => r.arriveAt)),
      };
    },
    close: () => model.close(),
  };
}
