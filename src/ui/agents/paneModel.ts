// What the /agents pane computes from the store and the selection outside its render: the
// rows' budget between header, banner, hints and list, when a refresh is the same as the last
// snapshot, where the selected run's row is, and whether anything is live. Kept apart from
// AgentsPane.tsx so the view stays a view and these stay testable without mounting it.
import type { Line } from '../text/segments.js';
import type { TreeView } from './tree.js';
import type { Run } from '../../model/run.js';
import type { RuntimeState } from '../../model/state.js';

/** Header, banner and hints give way (in this order) so at least one list row fits. */
export function budget(maxRows: number, header: Line[], banner: Line[], hints: Line[], footerNeeded: boolean) {
  const parts = { header: header.slice(), banner: banner.slice(), hints: hints.slice(), footer: 1 };
  const used = () => parts.header.length + parts.banner.length + parts.hints.length + parts.footer;
  while (maxRows - used() < 1) {
    if (parts.header.length > 1) parts.header.pop();
    else if (parts.hints.length > 1) parts.hints.pop();
    else if (parts.banner.length > 1) parts.banner.pop();
    else if (parts.footer && !footerNeeded) parts.footer = 0;
    else if (parts.header.length) parts.header.pop();
    else if (parts.hints.length) parts.hints.pop();
    else if (parts.banner.length) parts.banner.pop();
    else break;
  }
  return { ...parts, body: Math.max(0, maxRows - used()) };
}

/** What the pane draws from, per mode: the list (and the review) read the runs and the
 * controls; a run's transcript also reads the transcripts. A refresh that changed only what
 * the mode does not read (200 children streaming text change only their transcripts) keeps
 * the last snapshot, so the pane does not re-render at all. */
export function samePaneState(a: RuntimeState, b: RuntimeState, readsTranscripts: boolean): boolean {
  if (a === b) return true;
  if (a.runs !== b.runs || a.runOrder !== b.runOrder || a.controls !== b.controls) return false;
  return !readsTranscripts || (a.runTranscripts === b.runTranscripts && a.transcript === b.transcript);
}

/** The selected run, and the row it was on when chosen: a key press finds it there in
 * O(1) while the rows keep their order (rowIndex). */
export interface Selection {
  id?: string;
  index: number;
}
export const NO_SELECTION: Selection = { index: -1 };

/** The selected run's row in `view`, or -1: where it was chosen if it is still there, else
 * looked up once per view (a refresh that moved rows). */
export function rowIndex(view: TreeView, sel: Selection): number {
  if (sel.id === undefined) return -1;
  if (view.rows[sel.index]?.run.id === sel.id) return sel.index;
  return rowIndexById(view).get(sel.id) ?? -1;
}

const rowIndexes = new WeakMap<TreeView, Map<string, number>>();
function rowIndexById(view: TreeView): Map<string, number> {
  let map = rowIndexes.get(view);
  if (!map) {
    map = new Map(view.rows.map((r, i) => [r.run.id, i]));
    rowIndexes.set(view, map);
  }
  return map;
}

/** Whether any run has not ended. Newest first, as a live run is most likely among the
 * newest: during a fan-out this reads one run per refresh, not all 1,000. */
export function anyRunLive(s: Pick<RuntimeState, 'runs' | 'runOrder'>): boolean {
  for (let i = s.runOrder.length - 1; i >= 0; i--) {
    const run = s.runs.get(s.runOrder[i]);
    if (run && run.endedAt === undefined) return true;
  }
  return false;
}

/** Whether a row's elapsed time is moving: started, not ended, not held (a pause or an ask
 * stops the clock, runDisplay.activeMs). */
export function clockMoves(run: Run): boolean {
  return run.startedAt !== undefined && run.endedAt === undefined && run.pausedAt === undefined;
}
