// delegate: hands a request to a DIFFERENT configured agent. This file is the model-facing
// surface: argument checks, the gates in the reference's order and the exact output
// strings. Running children, budgets and task records belong to runtime/delegation/.
import type { DelegateDisplay, DelegateTargetDisplay } from '../../model/toolDisplay.js';
import { defineTool } from '../defineTool.js';
import { fail, ok, type Tool, type ToolContext, type ToolResult } from '../types.js';
import { delegateArgs, type ParsedArgs } from './args.js';
import { renderAwait, renderParallel, renderSingle } from './format.js';
import { depthLimitRefusal, policyRefusal, reach, targetPolicyRefusal } from './gating.js';
import { delegateServices, type DelegateRequest, type DelegateServices } from './services.js';
import { delegateDescription, delegateModelParameters } from './spec.js';
import {
  DELEGATE,
  TASK_ACTIONS,
  agentFailed,
  backgroundStarted,
  ambiguousTaskId,
  delegateOnlyRefusal,
  noResult,
  taskAlreadyFinished,
  taskCancelled,
  taskNotInThisProcess,
} from './strings.js';

export interface DelegateToolOptions {
  /** The instance a bounded child receives: bound to the target's identity (through its
   * ToolCaller) and limited to action=delegate. */
  delegateOnly?: boolean;
}

const NO_RUNTIME = 'delegate is unavailable: no supervisor is running in this context';

type DelegateArgs = Extract<ParsedArgs, { action: 'delegate' }>;

function delegateDisplay(args: DelegateArgs, targets: DelegateTargetDisplay[]): DelegateDisplay {
  return {
    kind: 'delegate',
    action: 'delegate',
    ...(args.parallel ? { parallel: true } : {}),
    ...(args.background ? { background: true } : {}),
    targets,
  };
}

function taskDisplay(action: DelegateDisplay['action'], taskIds: string[], targets: DelegateTargetDisplay[] = []): DelegateDisplay {
  return { kind: 'delegate', action, targets, taskIds };
}

/** Every gate for every target, before anything runs: a parallel call is admitted whole or
 * not at all. */
function admit(ctx: ToolContext, args: DelegateArgs): { requests: DelegateRequest[] } | { error: string } {
  const policy = policyRefusal(ctx.caller);
  if (policy) return { error: policy };
  const requests: DelegateRequest[] = [];
  for (const target of args.targets) {
    const r = reach(ctx.config, ctx.caller.alias, target);
    if (!r.ok) return { error: r.error };
    requests.push({ target, mode: r.mode, task: args.task, ...(args.isolation ? { isolation: args.isolation } : {}) });
  }
  const depth = depthLimitRefusal(ctx.caller);
  if (depth) return { error: depth };
  for (const req of requests) {
    const refusal = targetPolicyRefusal(ctx.config, ctx.caller.alias, req.target, req.mode);
    if (refusal) return { error: refusal };
  }
  return { requests };
}

async function runDelegate(ctx: ToolContext, args: DelegateArgs, services: DelegateServices | undefined): Promise<ToolResult> {
  // A refusal before anything ran names no target's outcome: its text is the whole story.
  const refused = (error: string) => fail(error, delegateDisplay(args, []));
  const admitted = admit(ctx, args);
  if ('error' in admitted) return refused(admitted.error);
  if (!services) return refused(NO_RUNTIME);
  const { requests } = admitted;
  const spawn = services.admissionRefusal(ctx, requests.length);
  if (spawn) return refused(spawn);
  // Outside a git work tree a child that needs its own worktree is refused here, before its
  // run exists: no row, no card, no task record; the model reads the literal refusal. Only a
  // call that needs a worktree waits for git; having waited, it passes admission again (other
  // calls may have started children meanwhile).
  const pending = services.isolationRefusal(ctx, requests);
  if (pending) {
    const refusal = (await pending) ?? services.admissionRefusal(ctx, requests.length);
    if (refusal) return refused(refusal);
  }

  if (args.background) {
    const launched: string[] = [];
    const entries: DelegateTargetDisplay[] = [];
    for (const req of requests) {
      try {
        const { taskId } = services.startBackground(ctx, req);
        launched.push(backgroundStarted(req.target, taskId));
        entries.push({ target: req.target, success: true, taskId });
      } catch (err) {
        const error = agentFailed(req.target, (err as Error).message);
        launched.push(error);
        entries.push({ target: req.target, success: false, error });
        if (!args.parallel) return fail(launched[0], delegateDisplay(args, entries));
      }
    }
    return ok(launched.join('\n\n'), delegateDisplay(args, entries));
  }

  const outcomes = await services.runForeground(ctx, requests);
  const rendered = args.parallel
    ? renderParallel(args.targets, outcomes, ctx.config)
    : renderSingle(args.targets[0], outcomes[0], ctx.config);
  const display = delegateDisplay(args, rendered.entries);
  return rendered.success ? ok(rendered.text, display) : fail(rendered.text, display);
}

/** A short id names the one task of the caller's it starts; else the refusal to return. */
function resolveTaskId(ctx: ToolContext, services: DelegateServices, idOrPrefix: string): { id: string } | { refusal: string } {
  const matches = services.matchTaskIds(ctx, idOrPrefix);
  if (matches.length === 1) return { id: matches[0] };
  return { refusal: matches.length === 0 ? noResult(idOrPrefix) : ambiguousTaskId(idOrPrefix, matches) };
}

async function runTaskAction(ctx: ToolContext, args: Exclude<ParsedArgs, DelegateArgs>, services: DelegateServices): Promise<ToolResult> {
  switch (args.action) {
    case 'check_result': {
      const resolved = resolveTaskId(ctx, services, args.taskId);
      if ('refusal' in resolved) return fail(resolved.refusal, taskDisplay('check_result', [args.taskId]));
      const taskId = resolved.id;
      const view = services.checkResult(ctx, taskId);
      if (!view) return fail(noResult(args.taskId), taskDisplay('check_result', [taskId]));
      const entry: DelegateTargetDisplay = {
        target: view.agent,
        success: view.status === 'completed',
        taskId: view.task_id,
        status: view.status,
        ...(view.output !== null ? { answer: view.output } : {}),
        ...(view.error !== null ? { error: view.error } : {}),
        ...(view.worktree ? { worktree: view.worktree } : {}),
      };
      return ok(JSON.stringify(view, null, 2), taskDisplay('check_result', [taskId], [entry]));
    }
    case 'list_results': {
      const tasks = services.listResults(ctx);
      const entries = tasks.map((v): DelegateTargetDisplay => ({
        target: v.agent,
        success: v.status === 'completed',
        taskId: v.task_id,
        status: v.status,
      }));
      return ok(
        JSON.stringify({ tasks }, null, 2),
        taskDisplay(
          'list_results',
          tasks.map((v) => v.task_id),
          entries,
        ),
      );
    }
    case 'cancel_task': {
      const resolved = resolveTaskId(ctx, services, args.taskId);
      if ('refusal' in resolved) return fail(resolved.refusal, taskDisplay('cancel_task', [args.taskId]));
      const taskId = resolved.id;
      const r = await services.cancelTask(ctx, taskId);
      const display = taskDisplay('cancel_task', [taskId]);
      switch (r.kind) {
        case 'cancelled':
          return ok(taskCancelled(taskId, r.agent), display);
        case 'finished':
          return fail(taskAlreadyFinished(taskId, r.status), display);
        case 'elsewhere':
          return fail(taskNotInThisProcess(taskId, r.pid), display);
        case 'missing':
          return fail(noResult(taskId), display);
      }
      break;
    }
    case 'await_sessions': {
      const taskIds: string[] = [];
      for (const id of args.taskIds) {
        const matches = services.matchTaskIds(ctx, id);
        // An id nothing matches is reported missing by the wait, as before; an ambiguous one is refused.
        if (matches.length > 1) return fail(ambiguousTaskId(id, matches), taskDisplay('await_sessions', args.taskIds));
        const full = matches[0] ?? id;
        if (!taskIds.includes(full)) taskIds.push(full);
      }
      const report = await services.awaitSessions(ctx, taskIds, args.timeoutMs);
      const rendered = renderAwait(report);
      const display = taskDisplay('await_sessions', taskIds);
      return rendered.success ? ok(rendered.text, display) : { success: false, output: rendered.text, error: rendered.text, display };
    }
  }
  return fail(NO_RUNTIME);
}

export function createDelegateTool(opts: DelegateToolOptions = {}): Tool {
  const delegateOnly = opts.delegateOnly ?? false;
  return defineTool({
    name: DELEGATE,
    args: delegateArgs,
    // The parser reads anything that is not an object as "no arguments" itself.
    prepare: (raw) => raw,
    // The model reads the flat object with this caller's roster (spec.ts).
    parameters: (caller, config) => delegateModelParameters(caller, config),
    description: (caller, config) => delegateDescription(caller, config, delegateOnly),
    // Delegation is gated by policy and reachability, not by a prompt; always_ask or a
    // profile's own settings can still make it ask.
    asksByDefault: false,
    duplicateExempt: true,
    // The children's tool calls count against the shared tracker; the hand-off does not.
    countsAsAction: false,
    async run(args, ctx) {
      // A target whose profile would prompt for delegate (always_ask) never gets this far:
      // it is refused at admission (bounded agentic with always_ask entries).
      if (delegateOnly && TASK_ACTIONS.includes(args.action)) return fail(delegateOnlyRefusal(args.action));
      const services = delegateServices(ctx);
      if (args.action === 'delegate') return runDelegate(ctx, args, services);
      if (!services) return fail(NO_RUNTIME);
      return runTaskAction(ctx, args, services);
    },
  });
}

/** The instance every agent's registry starts from. */
export const delegateTool: Tool = createDelegateTool();
