// What a spawn_subagent / delegate card shows, derived once per transcript item: the task,
// the other input, and one response block per target. Memoized on the item object, which
// the store replaces whenever the call changes.
import type { ToolTranscriptItem } from '../../model/transcript.js';
import { blockError, cardArgs, parseEnvelope, parseParallel, reachedRetentionCap, type CardArgs } from './parse.js';

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

function syncBlock(target: string, result: string | undefined, failed: boolean): ResponseBlock {
  if (result === undefined || result === '') return { target };
  const env = failed ? undefined : parseEnvelope(result, target);
  if (env) return { target, text: env.response, attribution: env.attribution, agentic: env.agentic };
  return { target, text: result, error: failed };
}

function blocksFor(args: CardArgs, item: ToolTranscriptItem, settled: boolean): ResponseBlock[] {
  if (!settled) return [];
  const failed = item.status !== 'ok';
  const result = item.result;
  if (args.tool === 'spawn_subagent') return [result ? { text: result, error: failed } : {}];
  if (!args.parallel) return [syncBlock(args.targets[0], result, failed)];
  const parsed = result ? parseParallel(result, args.targets) : undefined;
  // A refusal before anything ran is one message for the whole call.
  if (!parsed) return [result ? { text: result, error: failed } : {}];
  return parsed.map((b): ResponseBlock => {
    if (b.body === undefined) return { target: b.target };
    if (b.envelope)
      return {
        target: b.target,
        reportedSuccess: b.reportedSuccess,
        text: b.envelope.response,
        attribution: b.envelope.attribution,
        agentic: b.envelope.agentic,
      };
    const err = b.reportedSuccess === false ? blockError(b.body) : undefined;
    return { target: b.target, reportedSuccess: b.reportedSuccess, text: err ?? b.body, error: b.reportedSuccess === false };
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
    model = { ...args, blocks: blocksFor(args, item, settled), capped: reachedRetentionCap(item.result), settled };
  }
  cache.set(item, model);
  return model ?? undefined;
}

/** True when this call gets a dedicated card (the same test the renderer applies). */
export function hasDedicatedCard(item: ToolTranscriptItem): boolean {
  return cardModel(item) !== undefined;
}
