// delegate: hands a request to a DIFFERENT configured agent. This file is the model-facing
// surface: argument checks, the gates in the reference's order and the exact output
// strings. Running children, budgets and task records belong to runtime/delegation/.
import type { ArborConfig } from '../../config/types.js';
import type { ToolSpec } from '../../providers/types.js';
import { fail, ok, type Tool, type ToolCaller, type ToolContext, type ToolResult } from '../types.js';
import { parseArgs, type ParsedArgs } from './args.js';
import { renderAwait, renderOutcome, renderParallel } from './format.js';
import { depthLimitRefusal, policyRefusal, reach, targetPolicyRefusal } from './gating.js';
import { delegateServices, type DelegateRequest, type DelegateServices } from './services.js';
import { delegateSpec } from './spec.js';
import {
  DELEGATE,
  TASK_ACTIONS,
  agentFailed,
  backgroundStarted,
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

/** Every gate for every target, before anything runs: a parallel call is admitted whole or
 * not at all. */
function admit(ctx: ToolContext, args: DelegateArgs): { requests: DelegateRequest[] } | { error: string } {
  const policy = policyRefusal(ctx.caller);
  if (policy) return { error: policy };
  const requests: DelegateRequest[] = [];
  for (const target of args.targets) {
    const r = reach(ctx.config, ctx.caller.alias, target);
    if (!r.ok) return { error: r.error };
    requests.push({ target, mode: r.mode, task: args.task });
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
  const admitted = admit(ctx, args);
  if ('error' in admitted) return fail(admitted.error);
  if (!services) return fail(NO_RUNTIME);
  const { requests } = admitted;
  const spawn = services.admissionRefusal(ctx, requests.length);
  if (spawn) return fail(spawn);

  if (args.background) {
    const launched: string[] = [];
    for (const req of requests) {
      try {
        launched.push(backgroundStarted(req.target, services.startBackground(ctx, req).taskId));
      } catch (err) {
        launched.push(agentFailed(req.target, (err as Error).message));
        if (!args.parallel) return fail(launched[0]);
      }
    }
    return ok(launched.join('\n\n'));
  }

  const outcomes = await services.runForeground(ctx, requests);
  const rendered = args.parallel
    ? renderParallel(args.targets, outcomes, ctx.config)
    : renderOutcome(args.targets[0], outcomes[0], ctx.config);
  return rendered.success ? ok(rendered.text) : fail(rendered.text);
}

async function runTaskAction(ctx: ToolContext, args: Exclude<ParsedArgs, DelegateArgs>, services: DelegateServices): Promise<ToolResult> {
  switch (args.action) {
    case 'check_result': {
      const view = services.checkResult(ctx, args.taskId);
      return view ? ok(JSON.stringify(view, null, 2)) : fail(noResult(args.taskId));
    }
    case 'list_results':
      return ok(JSON.stringify({ tasks: services.listResults(ctx) }, null, 2));
    case 'cancel_task': {
      const r = await services.cancelTask(ctx, args.taskId);
      switch (r.kind) {
        case 'cancelled':
          return ok(taskCancelled(args.taskId, r.agent));
        case 'finished':
          return fail(taskAlreadyFinished(args.taskId, r.status));
        case 'elsewhere':
          return fail(taskNotInThisProcess(args.taskId, r.pid));
        case 'missing':
          return fail(noResult(args.taskId));
      }
      break;
    }
    case 'await_sessions': {
      const rendered = renderAwait(await services.awaitSessions(ctx, args.taskIds, args.timeoutMs));
      return rendered.success ? ok(rendered.text) : { success: false, output: rendered.text, error: rendered.text };
    }
  }
  return fail(NO_RUNTIME);
}

export function createDelegateTool(opts: DelegateToolOptions = {}): Tool {
  const delegateOnly = opts.delegateOnly ?? false;
  const tool: Tool = {
    name: DELEGATE,
    // Delegation is gated by policy and reachability, not by a prompt; always_ask or a
    // profile's own settings can still make it ask.
    asksByDefault: false,
    duplicateExempt: true,
    spec(caller: ToolCaller, config: ArborConfig): ToolSpec {
      return delegateSpec(caller, config, delegateOnly);
    },
    async run(raw: unknown, ctx: ToolContext): Promise<ToolResult> {
      const parsed = parseArgs(raw);
      if (!parsed.ok) return fail(parsed.error);
      const args = parsed.args;
      // A target whose profile would prompt for delegate (always_ask) never gets this far:
      // it is refused at admission (bounded agentic with always_ask entries).
      if (delegateOnly && TASK_ACTIONS.includes(args.action)) return fail(delegateOnlyRefusal(args.action));
      const services = delegateServices(ctx);
      if (args.action === 'delegate') return runDelegate(ctx, args, services);
      if (!services) return fail(NO_RUNTIME);
      return runTaskAction(ctx, args, services);
    },
  };
  return tool;
}

/** The instance every agent's registry starts from. */
export const delegateTool: Tool = createDelegateTool();
