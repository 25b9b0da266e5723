// What has been printed to <Static>. Static prints each entry once and tracks them by
// position, so this list only ever grows (until a clear); entries appear in the order they
// were committed, which is the order the user saw them happen.
import type { TranscriptItem } from '../../model/transcript.js';
import type { NoticeLevel } from '../theme.js';

export type FeedEntry =
  { key: string; kind: 'item'; item: TranscriptItem } | { key: string; kind: 'local'; level: NoticeLevel; text: string };

/** Finished items never change on screen again, so they can go to scrollback. */
export function isSettled(item: TranscriptItem): boolean {
  switch (item.kind) {
    case 'assistant':
      return !item.streaming;
    case 'tool':
      return item.status !== 'running' && item.status !== 'pending_approval';
    default:
      return true;
  }
}

/** While a turn runs, settled items go to scrollback at most this often. Each print to
 * <Static> is a frame of its own, drawn at once outside the frame throttle: a 1,000-child
 * fan-out settling its cards one by one drew a thousand frames in a second or two. */
export const FEED_BATCH_MS = 100;

export class StaticFeed {
  private list: FeedEntry[] = [];
  private seq = 0;
  /** How many transcript items have been committed, and the last one's identity. */
  private committed = 0;
  private lastCommitted: TranscriptItem | undefined;
  /** When items were last committed during a turn (ms, the caller's clock). */
  private lastAt = Number.NEGATIVE_INFINITY;
  private held: number | undefined;

  get entries(): readonly FeedEntry[] {
    return this.list;
  }

  /** Index of the first transcript item not yet committed: the live region starts here. */
  get cursor(): number {
    return this.committed;
  }

  /** When settled items that were held back (`batchMs`) may be committed: the caller
   * renders again then. Undefined when nothing waits. */
  get heldUntil(): number | undefined {
    return this.held;
  }

  /**
   * Commits the settled prefix of the transcript. Items after an unsettled one wait, so
   * order on screen matches the transcript. With no turn running everything is final,
   * whatever flags a cut-off turn left behind. Idempotent, so it is safe to call in render.
   * With `batchMs`, while a turn runs, a commit comes at most once per `batchMs` (`now` is
   * the caller's clock): what settles meanwhile waits (`heldUntil`) and goes in one batch.
   */
  sync(transcript: readonly TranscriptItem[], turnRunning: boolean, now = 0, batchMs = 0): readonly FeedEntry[] {
    if (this.committed > 0 && !this.stillPrefix(transcript)) this.rebase(transcript);
    let i = this.committed;
    const ready = (at: number) => at < transcript.length && (!turnRunning || isSettled(transcript[at]));
    this.held = undefined;
    if (turnRunning && batchMs > 0 && now - this.lastAt < batchMs && !this.replyReady(transcript, i, ready)) {
      if (ready(i)) this.held = this.lastAt + batchMs;
      return this.list;
    }
    const added: FeedEntry[] = [];
    while (ready(i)) {
      added.push({ key: `e${this.seq++}`, kind: 'item', item: transcript[i] });
      i++;
    }
    if (added.length > 0) {
      this.committed = i;
      this.lastCommitted = transcript[i - 1];
      this.list = this.list.concat(added);
      if (turnRunning) this.lastAt = now;
    }
    return this.list;
  }

  /** A finished reply among the items ready from `from`: it goes at once, with what
   * settled before it. Replies come one per step, the batches are for the cards a fan-out
   * settles one by one; and a held reply would be drawn in the live region, where it is
   * plain text, for up to a batch before scrollback shows it as markdown. */
  private replyReady(transcript: readonly TranscriptItem[], from: number, ready: (at: number) => boolean): boolean {
    for (let j = from; ready(j); j++) if (transcript[j].kind === 'assistant') return true;
    return false;
  }

  addLocal(level: NoticeLevel, text: string): void {
    this.list = [...this.list, { key: `e${this.seq++}`, kind: 'local', level, text }];
  }

  /** Forget everything printed (the screen is being cleared too). */
  reset(): void {
    this.list = [];
    this.committed = 0;
    this.lastCommitted = undefined;
    this.lastAt = Number.NEGATIVE_INFINITY;
    this.held = undefined;
  }

  private stillPrefix(transcript: readonly TranscriptItem[]): boolean {
    const at = transcript[this.committed - 1];
    return at !== undefined && at.id === this.lastCommitted?.id;
  }

  /** The transcript was replaced (cleared, or loaded from disk): resume after the last
   * item we printed if it is still there, else start over with the new list. */
  private rebase(transcript: readonly TranscriptItem[]): void {
    const id = this.lastCommitted?.id;
    const idx = id === undefined ? -1 : transcript.findIndex((it) => it.id === id);
    this.committed = idx + 1;
    this.lastCommitted = idx >= 0 ? transcript[idx] : undefined;
  }
}
