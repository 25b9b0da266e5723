// Which spawn_subagent / delegate calls get a dedicated card, from the call's arguments, and
// what the card shows of them. What the call returned comes from the result's display
// (model/toolDisplay.ts), never from the text the model read.
import { RETAINED_RESULT_CAP } from '../../runtime/store.js';

export const SPAWN_TOOL = 'spawn_subagent';
export const DELEGATE_TOOL = 'delegate';

/** Arguments larger than this are not a task a person reads in a card: generic card. */
export const MAX_CARD_ARGS_BYTES = 64 * 1024;

export interface CardArgs {
  tool: typeof SPAWN_TOOL | typeof DELEGATE_TOOL;
  parallel: boolean;
  /** Delegate targets in call order; empty for spawn_subagent. */
  targets: string[];
  task: string;
  /** Every other argument (context, background: false, ...), shown as the call's input. */
  extra: Array<[string, unknown]>;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function argsBytes(args: unknown, rawArgs: string): number {
  if (rawArgs) return Buffer.byteLength(rawArgs, 'utf8');
  try {
    return Buffer.byteLength(JSON.stringify(args) ?? '', 'utf8');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * The card's view of a call, or undefined when the generic card must show it: another
 * tool, malformed or oversized arguments, a background launch, or a task-management
 * action (check_result, list_results, cancel_task, await_sessions).
 */
export function cardArgs(name: string, args: unknown, rawArgs: string): CardArgs | undefined {
  if (name !== SPAWN_TOOL && name !== DELEGATE_TOOL) return undefined;
  if (!isPlainObject(args)) return undefined;
  if (argsBytes(args, rawArgs) > MAX_CARD_ARGS_BYTES) return undefined;
  if (!nonEmpty(args.prompt)) return undefined;
  if (name === SPAWN_TOOL) {
    const extra = Object.entries(args).filter(([k]) => k !== 'prompt');
    return { tool: SPAWN_TOOL, parallel: false, targets: [], task: args.prompt, extra };
  }
  const action = args.action ?? 'delegate';
  if (action !== 'delegate') return undefined;
  if (args.background !== undefined && typeof args.background !== 'boolean') return undefined;
  if (args.background === true) return undefined;
  if (args.context !== undefined && typeof args.context !== 'string') return undefined;
  const hasAgent = args.agent !== undefined && args.agent !== null && args.agent !== '';
  const hasParallel = args.parallel !== undefined && args.parallel !== null;
  if (hasAgent === hasParallel) return undefined;
  let targets: string[];
  if (hasParallel) {
    const list = args.parallel;
    if (!Array.isArray(list) || list.length === 0 || !list.every(nonEmpty)) return undefined;
    targets = (list as string[]).map((s) => s.trim());
  } else {
    if (!nonEmpty(args.agent)) return undefined;
    targets = [args.agent.trim()];
  }
  const extra = Object.entries(args).filter(([k]) => k !== 'prompt' && k !== 'agent' && k !== 'parallel' && k !== 'action');
  return { tool: DELEGATE_TOOL, parallel: hasParallel, targets, task: args.prompt, extra };
}

/** True when the retained result reached the runtime's cap (capResult cuts at a character
 * boundary, so up to three bytes short of it). */
export function reachedRetentionCap(result: string | undefined): boolean {
  return result !== undefined && Buffer.byteLength(result, 'utf8') > RETAINED_RESULT_CAP - 4;
}
