// RuntimeApi.worktrees: the operator's actions on the merge queue (apply, skip, keep the
// branch, read the diff, re-run on the new tree) and on worktrees a crashed process left.
import type { WorktreeApi, WorktreeLeftover } from '../../model/worktree.js';
import type { SupervisorCore } from '../supervisorTypes.js';
import { cleanLeftover, findLeftovers } from './leftovers.js';
import type { WorktreeQueue } from './queue.js';
import type { RunPlaces } from './supervise.js';

export function worktreeApi(sup: SupervisorCore, places: RunPlaces, queue: WorktreeQueue): WorktreeApi {
  // Found once, at start: what this session makes is never a leftover.
  let left = findLeftovers(queue.dir, sup.store.getState().sessionId);
  return {
    apply: (runId) => queue.apply(runId),
    drop: (runId) => queue.drop(runId),
    keep: (runId) => queue.keep(runId),
    diff: (runId) => queue.diffOf(runId),
    review: (runId) => queue.reviewOf(runId),
    async rerun(runId) {
      const spec = places.specOf(runId);
      if (!spec || !(await queue.drop(runId))) return false;
      // The same task in a new worktree of the caller's tree as it is now; nobody waits on
      // it (the call that made the first one has returned): its outcome shows in /agents.
      void sup.runChild({ ...spec, isolation: 'worktree', parentSignal: undefined });
      return true;
    },
    leftovers: (): WorktreeLeftover[] => left.map(({ manifest: _m, ...rest }) => rest),
    async cleanLeftovers() {
      const n = left.length;
      for (const l of left) await cleanLeftover(l);
      left = [];
      return n;
    },
  };
}
