// Reads a spawn_subagent / delegate tool call for its card: the arguments the card can show,
// and the result formats the tools return (the sync envelope, the parallel blocks). Anything
// that does not fit is left to the generic card or shown intact; nothing here guesses.
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

export interface Envelope {
  target: string;
  /** What the header says about the model: "<provider_type>/<model>", or the requested and
   * served pair after a provider fallback. */
  attribution: string;
  agentic: boolean;
  response: string;
}

const ENVELOPE_HEAD = /^\[Agent '(.+)' \((.+)\)\]$/;
const AGENTIC_SUFFIX = ', agentic';

/** `[Agent '<target>' (<provider_type>/<model>[, agentic])]\n<response>`; undefined for any
 * other text, or when it names another target than the one called. */
export function parseEnvelope(text: string, target?: string): Envelope | undefined {
  const nl = text.indexOf('\n');
  if (nl < 0) return undefined;
  const m = ENVELOPE_HEAD.exec(text.slice(0, nl));
  if (!m) return undefined;
  if (target !== undefined && m[1] !== target) return undefined;
  const response = text.slice(nl + 1);
  if (response.trim() === '') return undefined;
  const agentic = m[2].endsWith(AGENTIC_SUFFIX);
  return { target: m[1], attribution: agentic ? m[2].slice(0, -AGENTIC_SUFFIX.length) : m[2], agentic, response };
}

export interface ParallelBlock {
  target: string;
  /** The block's own `success=` flag, as recorded in the result text. */
  reportedSuccess?: boolean;
  /** Undefined when the block is not in the retained text (it was capped). */
  body?: string;
  envelope?: Envelope;
}

const PARALLEL_HEAD = /^\[Parallel delegation: (\d+) agents\]\n\n/;
const ERROR_PREFIX = 'Error: ';

/** Splits `[Parallel delegation: <N> agents]\n\n` + `--- <target> (success=<bool>) ---\n...`
 * blocks, looking for the called targets in order. Undefined when the text is not that
 * format (a refusal, say), so the caller shows it intact. */
export function parseParallel(text: string, targets: readonly string[]): ParallelBlock[] | undefined {
  const head = PARALLEL_HEAD.exec(text);
  if (!head || Number(head[1]) !== targets.length) return undefined;
  const starts: Array<{ at: number; bodyAt: number; success: boolean } | undefined> = [];
  let pos = head[0].length;
  for (let i = 0; i < targets.length; i++) {
    const marker = `--- ${targets[i]} (success=`;
    const at = i === 0 ? (text.startsWith(marker, pos) ? pos : -1) : text.indexOf(`\n\n${marker}`, pos);
    if (at < 0) {
      starts.push(undefined);
      continue;
    }
    const headerAt = i === 0 ? at : at + 2;
    const rest = text.slice(headerAt + marker.length, headerAt + marker.length + 12);
    const flag = /^(true|false)\) ---\n/.exec(rest);
    if (!flag) {
      starts.push(undefined);
      continue;
    }
    const bodyAt = headerAt + marker.length + flag[0].length;
    starts.push({ at, bodyAt, success: flag[1] === 'true' });
    pos = bodyAt;
  }
  if (starts[0] === undefined) return undefined;
  return targets.map((target, i) => {
    const s = starts[i];
    if (!s) return { target };
    const next = starts.slice(i + 1).find((x) => x !== undefined);
    const body = text.slice(s.bodyAt, next ? next.at : text.length);
    const envelope = s.success ? parseEnvelope(body, target) : undefined;
    return { target, reportedSuccess: s.success, body, envelope };
  });
}

/** A failed block's body is `Error: <wrapped error>`. */
export function blockError(body: string): string | undefined {
  return body.startsWith(ERROR_PREFIX) ? body.slice(ERROR_PREFIX.length) : undefined;
}

/** True when the retained result reached the runtime's cap (capResult cuts at a character
 * boundary, so up to three bytes short of it). */
export function reachedRetentionCap(result: string | undefined): boolean {
  return result !== undefined && Buffer.byteLength(result, 'utf8') > RETAINED_RESULT_CAP - 4;
}
