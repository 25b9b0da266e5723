// What a spawn_subagent / delegate card shows, derived once per transcript item: the task,
// the other input, and one response block per target, read from the result's display. A
// call without one (it never ran: denied, skipped, refused before the tool) shows its
// recorded text intact. Memoized on the item object, which the store replaces whenever the
// call changes.
import type { DelegateTargetDisplay } from '../../model/toolDisplay.js';
import type { ToolTranscriptItem } from '../../model/transcript.js';
import { cardArgs, reachedRetentionCap, type CardArgs } from './cardArgs.js';

export interface ResponseBlock {
  /** Delegate target; undefined for spawn_subagent. */
  target?: string;
  /** The answer: an envelope's response, or the recorded text intact. Undefined: not recorded. */
  text?: string;
  /** The text is an error message (a failed call, or a parallel block's `Error:`). */
  error?: boolean;
  /** Parallel only: the block's `success=` flag as the result text records it. */
  reportedSuccess?: boolean;
  /** From a matching sync envelope: provider/model attribution, for Details. */
  attribution?: string;
  agentic?: boolean;
}

export interface CardModel extends CardArgs {
  /** Empty while the call has not returned. */
  blocks: ResponseBlock[];
  /** The retained result reached the 16 KiB cap: later blocks may be missing. */
  capped: boolean;
  /** The call has returned (or, restored, was recorded as ended). */
  settled: boolean;
}

/** An isolated child's worktree note on the line after its answer or its failure. */
const withNote = (text: string, note: string | undefined) => (note ? `${text}\n${note}` : text);

function answerBlock(e: DelegateTargetDisplay, parallel: boolean): ResponseBlock {
  const flag = parallel ? { reportedSuccess: e.success } : {};
  if (e.notRecorded) return { target: e.target };
  if (e.success && e.answer !== undefined) {
    return {
      target: e.target,
      ...flag,
      text: withNote(e.answer, e.worktree),
      ...(e.label !== undefined ? { attribution: e.label, agentic: e.agentic === true } : {}),
    };
  }
  return { target: e.target, ...flag, text: withNote(e.error ?? e.answer ?? '', e.worktree), error: !e.success };
}

function delegateEntries(item: ToolTranscriptItem): DelegateTargetDisplay[] {
  return item.display?.kind === 'delegate' ? item.display.targets : [];
}

function blocksFor(args: CardArgs, item: ToolTranscriptItem, settled: boolean): ResponseBlock[] {
  if (!settled) return [];
  const failed = item.status !== 'ok';
  const result = item.result;
  const whole = (): ResponseBlock[] => [result ? { text: result, error: failed } : {}];
  if (args.tool === 'spawn_subagent') {
    const d = item.display?.kind === 'spawn' ? item.display : undefined;
    // A child that did not finish says where its branch keeps its changes, as one that did.
    const own = d?.answer ?? d?.error;
    const text = own !== undefined ? withNote(own, d?.worktree) : result;
    return [text ? { text, error: failed } : {}];
  }
  const entries = delegateEntries(item);
  if (!args.parallel) {
    const target = args.targets[0];
    const e = entries.find((x) => x.target === target);
    if (!e) return [result ? { target, text: result, error: failed } : { target }];
    // A failed call shows the whole failure as recorded.
    if (failed && !e.success)
      return [{ target, text: e.error !== undefined ? withNote(e.error, e.worktree) : (result ?? ''), error: true }];
    return [answerBlock(e, false)];
  }
  // A refusal before anything ran is one message for the whole call.
  if (entries.length === 0) return whole();
  return args.targets.map((target, i): ResponseBlock => {
    const e = entries[i]?.target === target ? entries[i] : entries.find((x) => x.target === target);
    return e ? answerBlock(e, true) : { target };
  });
}

const cache = new WeakMap<ToolTranscriptItem, CardModel | null>();

/** The card model, or undefined when the generic card must show this call. */
export function cardModel(item: ToolTranscriptItem): CardModel | undefined {
  const hit = cache.get(item);
  if (hit !== undefined) return hit ?? undefined;
  const args = cardArgs(item.name, item.args, item.rawArgs);
  let model: CardModel | null = null;
  if (args) {
    // A restored call is over, whatever status it was recorded with.
    const settled = item.restored === true || (item.status !== 'running' && item.status !== 'pending_approval');
    const capped = reachedRetentionCap(item.result) || (item.display?.kind === 'delegate' && item.display.capped === true);
    model = { ...args, blocks: blocksFor(args, item, settled), capped, settled };
  }
  cache.set(item, model);
  return model ?? undefined;
}

/** True when this call gets a dedicated card (the same test the renderer applies). */
export function hasDedicatedCard(item: ToolTranscriptItem): boolean {
  return cardModel(item) !== undefined;
}
