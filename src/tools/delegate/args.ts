// delegate's arguments, schema first. `delegateParameters` is the flat object the model
// reads (spec.ts generates its JSON Schema from it); `delegateArgs` parses the model's
// arguments into one request per action, checking in the reference's order and refusing
// with its literal strings (strings.ts). Both are built from the same field schemas.
import { z } from 'zod';
import { isTaskIdOrPrefix } from '../../persistence/taskRecords.js';
import { nonBlank, parseToolArgs } from '../toolArgs.js';
import { isolationArg } from '../worktreeNotes.js';
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
} from './strings.js';

export type ParsedArgs =
  | { action: 'delegate'; targets: string[]; parallel: boolean; task: string; background: boolean; isolation?: 'worktree' }
  | { action: 'check_result' | 'cancel_task'; taskId: string }
  | { action: 'list_results' }
  | { action: 'await_sessions'; taskIds: string[]; timeoutMs: number };

export type ParseResult = { ok: true; args: ParsedArgs } | { ok: false; error: string };

function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The arguments as the model reads them. The `agent` description is replaced per caller
 * (spec.ts) with the roster it may reach. */
export const delegateParameters = z
  .object({
    action: z.enum(ACTIONS).default('delegate').describe('What to do; delegate unless managing background tasks.'),
    agent: z.string().describe('Alias of the target agent.'),
    prompt: z.string().describe('The complete task for the target agent. It sees nothing else of this conversation.'),
    context: z.string().describe('Background the target needs, sent before the task.'),
    background: z.boolean().describe('Run detached and return a task_id at once.'),
    parallel: z.array(z.string()).describe('Several target aliases that each get the same prompt, run at once.'),
    task_id: z.string().describe('A background task id (check_result, cancel_task).'),
    task_ids: z.array(z.string()).describe('Background task ids to wait for (await_sessions).'),
    timeout_ms: z
      .int()
      .min(0)
      .max(AWAIT_MAX_TIMEOUT_MS)
      .default(AWAIT_DEFAULT_TIMEOUT_MS)
      .describe(`How long await_sessions waits (default ${AWAIT_DEFAULT_TIMEOUT_MS}, capped at ${AWAIT_MAX_TIMEOUT_MS}).`),
    isolation: isolationArg,
  })
  .partial();

// ---- the fields as parsed: the model-facing types, refusing with the literal strings ----

const action = z
  .enum(ACTIONS)
  .nullish()
  .transform((a) => a ?? 'delegate');

const agent = z
  .string({ error: MISSING_AGENT })
  .refine(nonBlank, { error: MISSING_AGENT })
  .transform((s) => s.trim());

const parallel = z
  .array(z.string({ error: BAD_PARALLEL }).refine(nonBlank, { error: BAD_PARALLEL }), { error: BAD_PARALLEL })
  .min(1, { error: BAD_PARALLEL })
  .transform((list) => list.map((s) => s.trim()));

const prompt = z.string({ error: MISSING_PROMPT }).refine(nonBlank, { error: MISSING_PROMPT });

/** A UUID or a short prefix of one (tool.ts resolves it from the task records), compared
 * lower-case; only hex and dashes, so it can never name a path. */
const taskId = z
  .custom<string>(isTaskIdOrPrefix, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === '' ? MISSING_TASK_ID : invalidTaskId(shown(issue.input)),
  })
  .transform((id) => id.toLowerCase());

/** Every id valid and listed once, checked in list order so the first problem is named. */
const taskIds = z
  .array(z.unknown(), { error: MISSING_TASK_IDS })
  .min(1, { error: MISSING_TASK_IDS })
  .transform((list, ctx) => {
    const ids: string[] = [];
    for (const item of list) {
      const id = taskId.safeParse(item);
      if (!id.success) return refuse(ctx, invalidTaskId(shown(item)));
      if (ids.includes(id.data)) return refuse(ctx, duplicateTaskId(id.data));
      ids.push(id.data);
    }
    return ids;
  });

/** The reference's "timeout_ms defaults to 30000 and is capped at 120000": larger values
 * wait the cap, fractions are floored; neither is an error. */
const timeoutMs = z
  .number({ error: BAD_TIMEOUT })
  .min(0, { error: BAD_TIMEOUT })
  .nullish()
  .transform((ms) => (ms === undefined || ms === null ? AWAIT_DEFAULT_TIMEOUT_MS : Math.min(Math.floor(ms), AWAIT_MAX_TIMEOUT_MS)));

function refuse(ctx: z.core.$RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** The child's only message: context first, when there is any. */
export function composeTask(prompt: string, context: string | undefined): string {
  return context !== undefined && context.trim() !== '' ? `[Context]\n${context}\n\n[Task]\n${prompt}` : prompt;
}

const present = (v: unknown, ...absent: unknown[]) => v !== undefined && v !== null && !absent.includes(v);

// context and background first; then who (agent or parallel, never both), then what.
const delegateAction = z
  .looseObject({
    action: z.literal('delegate'),
    context: z.string({ error: badField('context', 'a string') }).optional(),
    background: z.boolean({ error: badField('background', 'true or false') }).optional(),
    isolation: isolationArg.nullish(),
  })
  .transform((a, ctx): ParsedArgs => {
    const hasAgent = present(a.agent, '');
    const hasParallel = present(a.parallel);
    if (hasAgent && hasParallel) return refuse(ctx, AGENT_AND_PARALLEL);
    const targets = hasParallel ? parallel.safeParse(a.parallel) : agent.transform((s) => [s]).safeParse(a.agent);
    if (!targets.success) return refuse(ctx, targets.error.issues[0].message);
    const task = prompt.safeParse(a.prompt);
    if (!task.success) return refuse(ctx, task.error.issues[0].message);
    return {
      action: 'delegate',
      targets: targets.data,
      parallel: hasParallel,
      task: composeTask(task.data, a.context),
      background: a.background === true,
      ...(a.isolation ? { isolation: a.isolation } : {}),
    };
  });

const taskAction = z
  .object({ action: z.enum(['check_result', 'cancel_task']), task_id: taskId })
  .transform((a): ParsedArgs => ({ action: a.action, taskId: a.task_id }));

const listAction = z.object({ action: z.literal('list_results') }).transform((): ParsedArgs => ({ action: 'list_results' }));

const awaitAction = z
  .object({ action: z.literal('await_sessions'), task_ids: taskIds, timeout_ms: timeoutMs })
  .transform((a): ParsedArgs => ({ action: 'await_sessions', taskIds: a.task_ids, timeoutMs: a.timeout_ms }));

/** Anything that is not an object reads as "no arguments", as the hand-written parser did. */
const asObject = (raw: unknown): Record<string, unknown> =>
  typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};

export const delegateArgs = z
  .preprocess(asObject, z.looseObject({ action: z.unknown().optional() }))
  .transform((a, ctx) => {
    const act = action.safeParse(a.action);
    if (!act.success) return refuse(ctx, unknownAction(shown(a.action)));
    return { ...a, action: act.data };
  })
  .pipe(z.discriminatedUnion('action', [delegateAction, taskAction, listAction, awaitAction]));

export function parseArgs(raw: unknown): ParseResult {
  return parseToolArgs(delegateArgs, raw);
}

/** How long await_sessions waits for `timeout_ms`; undefined when the value is refused. */
export function awaitTimeoutMs(raw: unknown): number | undefined {
  const parsed = timeoutMs.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
