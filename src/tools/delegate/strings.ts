// What the model reads from `delegate`. Most are protocol strings: tests assert them byte
// for byte, so they are not localized. Those the reference calls catalog messages (the
// policy and reachability refusals, the invalid semantic completion) live in
// locales/<lang>/delegate.json, with the reference's English as the English text.
import { t } from '../../i18n/index.js';

export const DELEGATE = 'delegate';

export const ACTIONS = ['delegate', 'check_result', 'list_results', 'cancel_task', 'await_sessions'] as const;
export type DelegateAction = (typeof ACTIONS)[number];
export const TASK_ACTIONS: readonly DelegateAction[] = ['check_result', 'list_results', 'cancel_task', 'await_sessions'];

export const AWAIT_DEFAULT_TIMEOUT_MS = 30_000;
export const AWAIT_MAX_TIMEOUT_MS = 120_000;

// ---- gates ----

// The reference names these four refusals as catalog messages: their English text is the
// reference's, and they are translated like any other message (locales/*/delegate.json).
export const forbiddenRefusal = (caller: string, profile: string) => t('delegate:refusals.forbidden', { caller, profile });

export const crossProfileRefusal = (target: string, caller: string, callerProfile: string, targetProfile: string) =>
  t('delegate:refusals.crossProfile', { target, caller, callerProfile, targetProfile });

export const peersDisabledRefusal = (target: string, caller: string) => t('delegate:refusals.peersDisabled', { target, caller });

export const disabledRefusal = (target: string, caller: string) => t('delegate:refusals.disabled', { target, caller });

export const selfRefusal = (caller: string) =>
  `delegate target "${caller}" is not reachable from "${caller}": an agent cannot delegate to itself`;

export const unknownAgent = (target: string, available: string[]) =>
  `Unknown agent '${target}'. Available agents: ${available.length ? available.join(', ') : '(none)'}`;

export const depthRefusal = (depth: number, max: number) => `Delegation depth limit reached (${depth}/${max}).`;

export const unknownAction = (value: string) =>
  `Unknown action '${value}'. Use delegate/check_result/list_results/cancel_task/await_sessions.`;

export type TargetMode = 'independent' | 'bounded agentic';

export const alwaysAskRefusal = (target: string, mode: TargetMode, caller: string, profile: string, entries: string[]) =>
  `delegate target "${target}" cannot run in ${mode} mode from "${caller}": risk profile "${profile}" has always_ask entries (${entries.join(', ')}). See ZeroClaw docs, "Delegation & SubAgents" > "What's not supported".`;

export const missingRiskProfile = (target: string, profile: string) =>
  `Agent '${target}' is agentic but risk_profile '${profile}' is not configured.`;

/** The target-bound instance in a child: task management belongs to an ancestor. */
export const delegateOnlyRefusal = (action: string) =>
  `Action '${action}' is not available here: a delegated agent's delegate tool is delegate-only. Return the task_id to your caller so it can use '${action}'.`;

// ---- arguments ----

export const MISSING_PROMPT = "Missing or empty 'prompt' parameter";
export const MISSING_AGENT = "Missing or empty 'agent' parameter (or give 'parallel' as a list of agent names)";
export const AGENT_AND_PARALLEL = "Give either 'agent' or 'parallel', not both";
export const BAD_PARALLEL = "'parallel' must be a non-empty list of agent names";
export const badField = (name: string, expected: string) => `'${name}' must be ${expected}`;
export const MISSING_TASK_ID = "Missing or empty 'task_id' parameter";
export const MISSING_TASK_IDS = "'task_ids' must be a non-empty list of task ids";
export const invalidTaskId = (value: string) =>
  `Invalid task_id '${value}': a task id is a UUID such as 123e4567-e89b-12d3-a456-426614174000.`;
export const duplicateTaskId = (id: string) => `Duplicate task_id '${id}' in task_ids; list each task once.`;
export const BAD_TIMEOUT = `'timeout_ms' must be a whole number of milliseconds from 0 to ${AWAIT_MAX_TIMEOUT_MS}`;

// ---- outcomes ----

export const syncEnvelope = (target: string, label: string, agentic: boolean, response: string) =>
  `[Agent '${target}' (${label}${agentic ? ', agentic' : ''})]\n${response}`;

export const agentFailed = (target: string, error: string) => `Agent '${target}' failed: ${error}`;

export const agentTimedOut = (target: string, secs: number) => `Agent '${target}' timed out after ${secs}s`;

export const backgroundStarted = (target: string, taskId: string) =>
  `Background task started for agent '${target}'.\ntask_id: ${taskId}\nUse action='check_result' with task_id='${taskId}' to retrieve the result.`;

export const parallelHeader = (n: number) => `[Parallel delegation: ${n} agents]\n\n`;

export const parallelBlock = (target: string, success: boolean, body: string) =>
  success ? `--- ${target} (success=true) ---\n${body}` : `--- ${target} (success=false) ---\nError: ${body}`;

export const noResult = (taskId: string) => `No result found for task_id '${taskId}'`;
/** A short task id that starts more than one of the caller's tasks. */
export const ambiguousTaskId = (prefix: string, candidates: readonly string[]) =>
  `task_id '${prefix}' is ambiguous: it starts ${candidates.length} tasks (${candidates.join(', ')}); use more characters or the full id.`;

export const taskCancelled = (taskId: string, agent: string) => `Cancelled task_id '${taskId}' (agent '${agent}').`;
export const taskAlreadyFinished = (taskId: string, status: string) =>
  `Task '${taskId}' already finished with status '${status}'; nothing to cancel.`;
export const taskNotInThisProcess = (taskId: string, pid: number) =>
  `Task '${taskId}' is running in another arbor process (pid ${pid}); cancel it from there.`;

export const AWAIT_PENDING = 'one or more tasks are still pending or missing';
