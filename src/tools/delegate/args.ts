// Turns the model's arguments into one request per action, or the refusal it reads.
import { isValidTaskId } from '../../persistence/taskRecords.js';
import {
  ACTIONS,
  AGENT_AND_PARALLEL,
  AWAIT_DEFAULT_TIMEOUT_MS,
  AWAIT_MAX_TIMEOUT_MS,
  BAD_PARALLEL,
  BAD_TIMEOUT,
  MISSING_AGENT,
  MISSING_PROMPT,
  MISSING_TASK_ID,
  MISSING_TASK_IDS,
  badField,
  duplicateTaskId,
  invalidTaskId,
  unknownAction,
  type DelegateAction,
} from './strings.js';

export type ParsedArgs =
  | { action: 'delegate'; targets: string[]; parallel: boolean; task: string; background: boolean }
  | { action: 'check_result' | 'cancel_task'; taskId: string }
  | { action: 'list_results' }
  | { action: 'await_sessions'; taskIds: string[]; timeoutMs: number };

export type ParseResult = { ok: true; args: ParsedArgs } | { ok: false; error: string };

const bad = (error: string): ParseResult => ({ ok: false, error });

function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The reference's "timeout_ms defaults to 30000 and is capped at 120000": larger values
 * wait the cap, they are not an error. */
export function awaitTimeoutMs(raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return AWAIT_DEFAULT_TIMEOUT_MS;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) return undefined;
  return Math.min(Math.floor(raw), AWAIT_MAX_TIMEOUT_MS);
}

/** The child's only message: context first, when there is any. */
export function composeTask(prompt: string, context: string | undefined): string {
  return context !== undefined && context.trim() !== '' ? `[Context]\n${context}\n\n[Task]\n${prompt}` : prompt;
}

function taskIdOf(raw: unknown): ParseResult | string {
  if (raw === undefined || raw === null || raw === '') return bad(MISSING_TASK_ID);
  if (!isValidTaskId(raw)) return bad(invalidTaskId(shown(raw)));
  return raw.toLowerCase();
}

export function parseArgs(raw: unknown): ParseResult {
  const a = (raw ?? {}) as Record<string, unknown>;
  const action = a.action ?? 'delegate';
  if (typeof action !== 'string' || !(ACTIONS as readonly string[]).includes(action)) return bad(unknownAction(shown(action)));

  switch (action as DelegateAction) {
    case 'delegate': {
      if (a.context !== undefined && typeof a.context !== 'string') return bad(badField('context', 'a string'));
      if (a.background !== undefined && typeof a.background !== 'boolean') return bad(badField('background', 'true or false'));
      const hasAgent = a.agent !== undefined && a.agent !== null && a.agent !== '';
      const hasParallel = a.parallel !== undefined && a.parallel !== null;
      if (hasAgent && hasParallel) return bad(AGENT_AND_PARALLEL);
      let targets: string[];
      if (hasParallel) {
        const list = a.parallel;
        if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === 'string' && x.trim() !== '')) return bad(BAD_PARALLEL);
        targets = (list as string[]).map((x) => x.trim());
      } else {
        if (typeof a.agent !== 'string' || a.agent.trim() === '') return bad(MISSING_AGENT);
        targets = [a.agent.trim()];
      }
      if (typeof a.prompt !== 'string' || a.prompt.trim() === '') return bad(MISSING_PROMPT);
      return {
        ok: true,
        args: {
          action: 'delegate',
          targets,
          parallel: hasParallel,
          task: composeTask(a.prompt, a.context as string | undefined),
          background: a.background === true,
        },
      };
    }
    case 'check_result':
    case 'cancel_task': {
      const id = taskIdOf(a.task_id);
      if (typeof id !== 'string') return id;
      return { ok: true, args: { action, taskId: id } as ParsedArgs };
    }
    case 'list_results':
      return { ok: true, args: { action: 'list_results' } };
    case 'await_sessions': {
      const list = a.task_ids;
      if (!Array.isArray(list) || list.length === 0) return bad(MISSING_TASK_IDS);
      const ids: string[] = [];
      for (const item of list) {
        if (!isValidTaskId(item)) return bad(invalidTaskId(shown(item)));
        const id = item.toLowerCase();
        if (ids.includes(id)) return bad(duplicateTaskId(id));
        ids.push(id);
      }
      const timeoutMs = awaitTimeoutMs(a.timeout_ms);
      if (timeoutMs === undefined) return bad(BAD_TIMEOUT);
      return { ok: true, args: { action: 'await_sessions', taskIds: ids, timeoutMs } };
    }
  }
}
