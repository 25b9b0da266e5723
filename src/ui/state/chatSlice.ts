// What the chat screen itself (App) reads from the store, as one slice taken together: the
// transcript and whether a root run is active come from the same snapshot, so the feed
// never commits a stale copy of an item as final when a turn ends. While a turn runs the
// transcript changes with every tool event of every child call (a 1,000-child fan-out
// replaces it thousands of times); those changes are taken once a frame. Everything else
// here — a turn starting or ending, the agent info, a retry notice, a quota banner, an ask
// for the operator (its prompt is drawn with the card that asks, in the same frame) — and
// any transcript change with no turn running (/clear, a resumed session) shows at once.
import type { RuntimeState } from '../../model/state.js';
import { quotaBannerHeight } from '../components/QuotaBanner.js';

export interface ChatSlice {
  info: RuntimeState['info'];
  transcript: RuntimeState['transcript'];
  activeRoot: string | undefined;
  retryNotice: string | undefined;
  quotaRows: number;
  /** The asks' lists, by identity: not drawn from here (ui/asks/ reads them), only so that
   * an ask that appears takes the transcript with it. */
  approvals: RuntimeState['controls']['approvals'];
  fanouts: RuntimeState['controls']['fanouts'];
  elicitations: RuntimeState['controls']['elicitations'];
}

export function selectChatSlice(s: RuntimeState): ChatSlice {
  return {
    info: s.info,
    transcript: s.transcript,
    activeRoot: s.activeRootRunId,
    retryNotice: s.retryNotice,
    quotaRows: quotaBannerHeight(s.quotaPauses),
    approvals: s.controls.approvals,
    fanouts: s.controls.fanouts,
    elicitations: s.controls.elicitations,
  };
}

function sameButTranscript(a: ChatSlice, b: ChatSlice): boolean {
  return (
    a.info === b.info &&
    a.activeRoot === b.activeRoot &&
    a.retryNotice === b.retryNotice &&
    a.quotaRows === b.quotaRows &&
    a.approvals === b.approvals &&
    a.fanouts === b.fanouts &&
    a.elicitations === b.elicitations
  );
}

export function sameChatSlice(a: ChatSlice, b: ChatSlice): boolean {
  return a.transcript === b.transcript && sameButTranscript(a, b);
}

/** Only a running turn's transcript changes wait for the next frame. */
export function urgentChatChange(taken: ChatSlice, next: ChatSlice): boolean {
  if (!sameButTranscript(taken, next)) return true;
  return taken.transcript !== next.transcript && next.activeRoot === undefined;
}
