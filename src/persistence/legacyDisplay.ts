// Displays for session files written before tool results carried one. Those files hold
// only the text the model read, so this is the one place that reads delegate's envelope
// (`[Agent '<target>' (<label>[, agentic])]`) and parallel blocks back into data, once, on
// restore; views read only the display. A display read from a file is checked for the
// shape views rely on, and dropped (the generic card shows the text) when it is not that.
import { TOOL_DISPLAY_KINDS, type DelegateTargetDisplay, type ToolDisplay } from '../model/toolDisplay.js';
import type { ToolTranscriptItem } from '../model/transcript.js';
import { capDisplay } from '../text/displayCap.js';

const SPAWN = 'spawn_subagent';
const DELEGATE = 'delegate';
const RESULT_CAP = 16 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const optional = (v: unknown, check: (x: unknown) => boolean) => v === undefined || check(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function validHunk(h: unknown): boolean {
  return (
    isObject(h) &&
    isNumber(h.oldStart) &&
    isNumber(h.oldLines) &&
    isNumber(h.newStart) &&
    isNumber(h.newLines) &&
    Array.isArray(h.lines) &&
    h.lines.every(isString)
  );
}

function validTarget(t: unknown): boolean {
  return (
    isObject(t) &&
    isString(t.target) &&
    typeof t.success === 'boolean' &&
    optional(t.answer, isString) &&
    optional(t.error, isString) &&
    optional(t.label, isString) &&
    optional(t.taskId, isString)
  );
}

/** The display of a stored item when it has the shape its kind promises. */
export function validDisplay(v: unknown): ToolDisplay | undefined {
  if (!isObject(v) || !TOOL_DISPLAY_KINDS.includes(v.kind as ToolDisplay['kind'])) return undefined;
  const ok = (() => {
    switch (v.kind) {
      case 'diff':
        return isString(v.path) && isNumber(v.added) && isNumber(v.removed) && Array.isArray(v.hunks) && v.hunks.every(validHunk);
      case 'read':
        return isString(v.path) && isNumber(v.bytes);
      case 'list':
        return isString(v.path) && isNumber(v.entries);
      case 'grep':
        return isString(v.pattern) && isString(v.path) && isString(v.mode) && isNumber(v.matches) && isNumber(v.files);
      case 'glob':
        return isString(v.pattern) && isString(v.path) && isNumber(v.files);
      case 'shell':
        return isString(v.command) && optional(v.exitCode, isNumber);
      case 'spawn':
        return optional(v.answer, isString) && optional(v.error, isString);
      case 'delegate':
        return isString(v.action) && Array.isArray(v.targets) && v.targets.every(validTarget);
      case 'mcp':
        return isString(v.server) && isString(v.tool) && typeof v.isError === 'boolean';
      default:
        return false;
    }
  })();
  return ok ? (v as unknown as ToolDisplay) : undefined;
}

// ---- the old text formats, read once ----

const ENVELOPE_HEAD = /^\[Agent '(.+)' \((.+)\)\]$/;
const AGENTIC_SUFFIX = ', agentic';
const PARALLEL_HEAD = /^\[Parallel delegation: (\d+) agents\]\n\n/;
const ERROR_PREFIX = 'Error: ';

function envelope(text: string, target: string): DelegateTargetDisplay | undefined {
  const nl = text.indexOf('\n');
  if (nl < 0) return undefined;
  const m = ENVELOPE_HEAD.exec(text.slice(0, nl));
  if (!m || m[1] !== target) return undefined;
  const answer = text.slice(nl + 1);
  if (answer.trim() === '') return undefined;
  const agentic = m[2].endsWith(AGENTIC_SUFFIX);
  return { target, success: true, label: agentic ? m[2].slice(0, -AGENTIC_SUFFIX.length) : m[2], agentic, answer };
}

/** One entry per target in call order; a block the capped text no longer holds is not
 * recorded. Undefined when the text is not the parallel format (a refusal). */
function parallelTargets(text: string, targets: string[]): DelegateTargetDisplay[] | undefined {
  const head = PARALLEL_HEAD.exec(text);
  if (!head || Number(head[1]) !== targets.length) return undefined;
  const starts: Array<{ at: number; bodyAt: number; success: boolean } | undefined> = [];
  let pos = head[0].length;
  for (let i = 0; i < targets.length; i++) {
    const marker = `--- ${targets[i]} (success=`;
    const at = i === 0 ? (text.startsWith(marker, pos) ? pos : -1) : text.indexOf(`\n\n${marker}`, pos);
    const headerAt = i === 0 ? at : at + 2;
    const flag = at < 0 ? null : /^(true|false)\) ---\n/.exec(text.slice(headerAt + marker.length, headerAt + marker.length + 12));
    if (!flag) {
      starts.push(undefined);
      continue;
    }
    const bodyAt = headerAt + marker.length + flag[0].length;
    starts.push({ at, bodyAt, success: flag[1] === 'true' });
    pos = bodyAt;
  }
  if (starts[0] === undefined) return undefined;
  return targets.map((target, i): DelegateTargetDisplay => {
    const s = starts[i];
    if (!s) return { target, success: false, notRecorded: true };
    const next = starts.slice(i + 1).find((x) => x !== undefined);
    const body = text.slice(s.bodyAt, next ? next.at : text.length);
    if (s.success) return envelope(body, target) ?? { target, success: true, answer: body };
    return { target, success: false, error: body.startsWith(ERROR_PREFIX) ? body.slice(ERROR_PREFIX.length) : body };
  });
}

function delegateTargets(args: Record<string, unknown>): { targets: string[]; parallel: boolean } | undefined {
  if (Array.isArray(args.parallel) && args.parallel.length > 0 && args.parallel.every(isString)) {
    return { targets: args.parallel.map((s) => s.trim()), parallel: true };
  }
  if (isString(args.agent) && args.agent.trim() !== '') return { targets: [args.agent.trim()], parallel: false };
  return undefined;
}

/** An old check_result's text: the task view as JSON (task_id, agent, status, output, error). */
function taskView(result: string): ToolDisplay | undefined {
  let v: unknown;
  try {
    v = JSON.parse(result);
  } catch {
    return undefined;
  }
  if (!isObject(v) || !isString(v.task_id) || !isString(v.agent) || !isString(v.status)) return undefined;
  const target: DelegateTargetDisplay = {
    target: v.agent,
    success: v.status === 'completed',
    taskId: v.task_id,
    status: v.status,
    ...(isString(v.output) ? { answer: v.output } : {}),
    ...(isString(v.error) ? { error: v.error } : {}),
  };
  return capDisplay({ kind: 'delegate', action: 'check_result', targets: [target], taskIds: [v.task_id] });
}

/** The display an old item's text stands for, for the calls whose cards read one. */
export function legacyDisplay(item: ToolTranscriptItem): ToolDisplay | undefined {
  const result = item.result;
  if (result === undefined || result === '') return undefined;
  const failed = item.status !== 'ok';
  if (item.name === SPAWN) return failed ? { kind: 'spawn', error: result } : { kind: 'spawn', answer: result };
  if (item.name !== DELEGATE || !isObject(item.args)) return undefined;
  const action = item.args.action ?? 'delegate';
  if (action === 'check_result' && !failed) return taskView(result);
  if (action !== 'delegate' || item.args.background === true) return undefined;
  const who = delegateTargets(item.args);
  if (!who) return undefined;
  const capped = Buffer.byteLength(result, 'utf8') > RESULT_CAP - 4;
  let targets: DelegateTargetDisplay[];
  if (who.parallel) {
    targets = parallelTargets(result, who.targets) ?? [];
  } else {
    const target = who.targets[0];
    targets = [
      (!failed ? envelope(result, target) : undefined) ??
        (failed ? { target, success: false, error: result } : { target, success: true, answer: result }),
    ];
  }
  return capDisplay({
    kind: 'delegate',
    action: 'delegate',
    ...(who.parallel ? { parallel: true } : {}),
    targets,
    ...(capped ? { capped: true } : {}),
  });
}

/** A restored tool item with a display views can trust: its own when valid, else one read
 * from an old item's text, else none. */
export function restoreDisplay(item: ToolTranscriptItem): ToolTranscriptItem {
  const own = item.display === undefined ? undefined : validDisplay(item.display);
  if (own) return own === item.display ? item : { ...item, display: own };
  const { display: _dropped, ...rest } = item;
  const legacy = legacyDisplay(rest);
  return legacy ? { ...rest, display: legacy } : rest;
}
