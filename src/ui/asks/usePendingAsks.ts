// What the chat shows above the input while the operator is asked something: the approval
// (the oldest, or one chosen in /agents, and whether an open pane keeps its keys), the
// large fan-out waiting for a count, and an MCP server's form, each with the asking run as
// the user knows it (`main`, researcher#2, or its path in the tree).
import type { RefObject } from 'react';
import { useSyncExternalStore } from 'react';
import { useStore } from 'zustand';
import { runLabel, runPath } from '../../runtime/runSelection.js';
import type { RuntimeStore } from '../../runtime/store.js';
import { useApprovalView } from '../approval/useApprovalView.js';
import { formOf, subscribeForms } from '../elicitation/formState.js';
import type { Pane } from '../panes/types.js';

export function usePendingAsks(store: RuntimeStore, paneRef: RefObject<Pane | null>, pane: Pane | null) {
  // The ask the prompt shows (the oldest, or one chosen in /agents) and who has its keys.
  const { approval, approvals, view, ui, scrollMax, diffPage } = useApprovalView(store, () => paneRef.current?.holdsApprovalKeys === true);
  // The asking run as the user knows it: `main`, or a child's label (researcher#2), and
  // for a child its path in the tree (main › researcher#2 › researcher#3).
  const approvalAgent = useStore(store, (s) => {
    const run = approval ? s.runs.get(approval.runId) : undefined;
    if (!run) return undefined;
    return run.parentRunId === undefined ? run.alias : runLabel(s, run.id);
  });
  const approvalPath = useStore(store, (s) => (approval?.isChild ? runPath(s, approval.runId).join(' › ') : undefined));
  // An open /agents pane keeps the keys until Enter on the asking row.
  const approvalDeferred = pane?.holdsApprovalKeys === true && !(view.armed && view.focusId === approval?.id);
  // A large fan-out waiting for the operator ([delegation] confirm_fanout_over).
  const fanout = useStore(store, (s) => s.controls.fanouts?.[0]);
  const fanoutAgent = useStore(store, (s) => {
    const run = fanout ? s.runs.get(fanout.runId) : undefined;
    return run && (run.parentRunId === undefined ? run.alias : runLabel(s, run.id));
  });
  // An MCP server's form waiting for the operator, labelled with the asking run's path.
  const elicitations = useStore(store, (s) => s.controls.elicitations);
  const elicitation = elicitations?.[0];
  const elicitationPath = useStore(store, (s) =>
    elicitation && s.runs.get(elicitation.runId) ? runPath(s, elicitation.runId).join(' › ') : s.info.agentAlias,
  );
  // Validation messages add rows: the budget follows the form.
  const elicitForm = useSyncExternalStore(
    subscribeForms,
    () => (elicitation ? formOf(elicitation) : undefined),
    () => undefined,
  );
  return {
    approval,
    approvals,
    approvalView: view,
    approvalUi: ui,
    /** How far the shown ask's arguments can scroll, and a diff page: set by the layout. */
    approvalScrollMax: scrollMax,
    approvalDiffPage: diffPage,
    approvalAgent,
    approvalPath,
    approvalDeferred,
    fanout,
    fanoutAgent,
    elicitations,
    elicitation,
    elicitationPath,
    elicitForm,
  };
}

export type PendingAsks = ReturnType<typeof usePendingAsks>;
