// Which pending ask the approval prompt shows and who has the keys. The queue is oldest
// first (controls.approvals); the prompt shows the oldest, unless the operator chose
// another with Enter on its row in /agents. While a pane that holds the approval keys is
// open (the /agents pane), they stay the pane's until that Enter "arms" the prompt; an
// answer, or the chosen ask going away, disarms it again.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { PendingApproval } from '../../model/controls.js';
import type { RuntimeStore } from '../../runtime/store.js';
import type { ApprovalUi, ApprovalView } from './view.js';

export function focusedApproval(list: readonly PendingApproval[], focusId: string | undefined): PendingApproval | undefined {
  return (focusId !== undefined ? list.find((a) => a.id === focusId) : undefined) ?? list[0];
}

export function useApprovalView(store: RuntimeStore, paneHoldsKeys: () => boolean) {
  const approvals = useStore(store, (s) => s.controls.approvals);
  const [view, setView] = useState<ApprovalView>({ index: 0, scroll: 0 });
  const viewRef = useRef(view);
  /** How far the shown ask's arguments can scroll; the App sets it each render. */
  const scrollMax = useRef(0);
  /** Rows a page moves the shown ask's diff (0: no diff taller than its window); the App sets it. */
  const diffPage = useRef(0);
  const ui: ApprovalUi = useMemo(() => {
    const set = (wanted: ApprovalView) => {
      const next = { ...wanted, scroll: Math.max(0, Math.min(wanted.scroll, scrollMax.current)) };
      viewRef.current = next;
      setView(next);
    };
    const current = () => focusedApproval(store.getState().controls.approvals, viewRef.current.focusId);
    return {
      get: () => viewRef.current,
      set,
      current,
      deferred: () => {
        if (!paneHoldsKeys()) return false;
        const v = viewRef.current;
        return !(v.armed && v.focusId !== undefined && current()?.id === v.focusId);
      },
      focus: (approvalId) => set({ index: 0, scroll: 0, focusId: approvalId, armed: true }),
      diffPage: () => diffPage.current,
    };
    // paneHoldsKeys reads a ref: stable for the life of the screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);
  const approval = focusedApproval(approvals, view.focusId);
  // A new ask in the prompt starts with "allow once" highlighted and its arguments at the
  // top; a chosen ask that went away (answered, or its run stopped) gives the prompt back
  // to the oldest one.
  const approvalId = approval?.id;
  useEffect(() => {
    const v = viewRef.current;
    ui.set(v.focusId !== undefined && v.focusId === approvalId ? { ...v, index: 0, scroll: 0 } : { index: 0, scroll: 0 });
  }, [approvalId, ui]);
  return { approval, approvals, view, ui, scrollMax, diffPage };
}
