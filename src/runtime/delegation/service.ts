// The delegate service: runs delegate children through the supervisor. Foreground children
// (one, or a parallel fan-out) are bound to the launching turn; background ones are
// detached, recorded under $ARBOR_HOME/tasks and survive the turn. Plugged into the
// supervisor through SupervisorDeps.extraServices, under the `delegate` key.
import { narrowToAgentTools } from '../../tools/agentTools.js';
import { t } from '../../i18n/index.js';
import type { ModelMessage } from '../../model/messages.js';
import type { TaskStore } from '../../persistence/taskRecords.js';
import type { DelegateRequest, DelegateRunOutcome, DelegateServices } from '../../tools/delegate/services.js';
import type { ToolCallOrigin } from '../../tools/types.js';
import { ChildPlanner, ownBudget, type ChildPlan } from './plan.js';
import { acpLabel, runAcpTarget } from './acpTarget.js';
import { basename } from 'node:path';
import { BackgroundTasks, type BackgroundLaunch } from './tasks.js';
import type { ExecutionBudget } from '../executionBudget.js';
import { childrenLimitRefusal } from '../spawnGate.js';
import type { PostNotice, RunHandle, SupervisorCore, SupervisorDeps } from '../supervisorTypes.js';
import type { Run } from '../types.js';

export class DelegationService {
  readonly planner: ChildPlanner;
  readonly tasks: BackgroundTasks;

  constructor(
    readonly supervisor: SupervisorCore,
    taskStore: TaskStore,
    private readonly notice: PostNotice,
  ) {
    this.planner = new ChildPlanner(supervisor);
    this.tasks = new BackgroundTasks(supervisor, taskStore, notice);
  }

  /** The services for tools inside a tree that shares `budget`. */
  forBudget(budget: ExecutionBudget | undefined): DelegateServices {
    return {
      admissionRefusal: (ctx, count) => this.admissionRefusal(ctx, count),
      isolationRefusal: (ctx, requests) => this.isolationRefusal(ctx, requests),
      runForeground: (ctx, requests) => this.runForeground(ctx, requests, budget),
      startBackground: (ctx, request) => this.startBackground(ctx, request),
      checkResult: (ctx, id) => this.tasks.check(ctx, id),
      listResults: (ctx) => this.tasks.list(ctx),
      matchTaskIds: (ctx, id) => this.tasks.match(ctx, id),
      cancelTask: (ctx, id) => this.tasks.cancel(ctx, id),
      awaitSessions: (ctx, ids, timeoutMs) => this.tasks.await(ctx, ids, timeoutMs),
    };
  }

  admissionRefusal(ctx: ToolCallOrigin, count: number): string | undefined {
    const shared = this.supervisor.spawnRefusal(ctx.runId);
    if (shared) return shared;
    // Detached background tasks still count against the run that launched them.
    const limit = this.supervisor.config.delegation.max_children_per_agent;
    const launched = this.tasks.launchedBy(ctx.runId);
    if (!this.supervisor.mayHaveLiveChildren(ctx.runId, limit - launched - count + 1)) return undefined;
    const live = this.supervisor.liveChildCount(ctx.runId) + launched;
    return live + count > limit ? childrenLimitRefusal(limit, live) : undefined;
  }

  isolationRefusal(ctx: ToolCallOrigin, requests: DelegateRequest[]): Promise<string | undefined> | undefined {
    const checks = requests.map((req) =>
      this.supervisor.isolationRefusal({ alias: req.target, isolation: req.isolation, parentRunId: ctx.runId }),
    );
    if (checks.every((c) => c === undefined)) return undefined;
    // The first refusal in request order.
    return Promise.all(checks).then((found) => found.find((r) => r !== undefined));
  }

  async runForeground(
    ctx: ToolCallOrigin,
    requests: DelegateRequest[],
    budget: ExecutionBudget | undefined,
  ): Promise<DelegateRunOutcome[]> {
    if (requests.length === 1) return [await this.runOne(ctx, requests[0], budget)];
    // A caller blocked on a fan-out gives its lane slot up once, for the whole fan-out;
    // otherwise the first child to finish would take it back while its siblings still run.
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const suspended = this.supervisor.lane.suspendWhile(ctx.runId, blocked);
    try {
      return await Promise.all(requests.map((req) => this.runOne(ctx, req, budget)));
    } finally {
      release();
      await suspended;
    }
  }

  private async runOne(ctx: ToolCallOrigin, req: DelegateRequest, treeBudget: ExecutionBudget | undefined): Promise<DelegateRunOutcome> {
    let plan: ChildPlan;
    try {
      plan = this.planner.plan(ctx, req);
    } catch (err) {
      return { status: 'failed', text: '', error: (err as Error).message, label: '', agentic: false };
    }
    // Bounded children draw from the turn's tree budget; independent ones mint their own.
    const budget =
      req.mode === 'bounded'
        ? treeBudget && { budget: treeBudget, role: 'child' as const }
        : (() => {
            const own = ownBudget(plan.runtime);
            return own && { budget: own, role: 'root' as const };
          })();
    // An external ACP agent names itself in initialize: the result's label says which.
    let label = plan.agent.acp ? acpLabel(basename(plan.agent.acp.command)) : plan.resolved.label;
    const outcome = await this.supervisor.runChild({
      kind: 'delegate',
      parentRunId: ctx.runId,
      parentToolCallId: ctx.toolCallId,
      alias: req.target,
      task: req.task,
      model: label,
      sessionKeyPrefix: 'delegate',
      parentSignal: ctx.signal,
      timeoutSecs: plan.timeoutSecs,
      tools: narrowToAgentTools(plan.tools, plan.agent.tools).names(),
      isolation: req.isolation,
      execute: (handle, run) =>
        plan.agent.acp
          ? runAcpTarget(this.supervisor, handle, run, plan, plan.agent.acp, req.task, (name) => (label = acpLabel(name)), this.notice)
          : this.execute(handle, run, plan, req.task, budget),
    });
    return {
      status: outcome.status,
      text: outcome.text,
      error: outcome.error,
      label,
      agentic: plan.agentic,
      timeoutSecs: plan.timeoutSecs,
      observed: outcome.observed,
      ...(outcome.worktreeNote ? { worktreeNote: outcome.worktreeNote } : {}),
    };
  }

  private execute(
    handle: RunHandle,
    run: Run,
    plan: ChildPlan,
    task: string,
    budget: { budget: ExecutionBudget; role: 'root' | 'child' } | undefined,
  ): Promise<string> {
    const { supervisor } = this;
    supervisor.recordUserItem(run.id, task);
    const history: ModelMessage[] = [{ role: 'user', content: task }];
    return supervisor.loopFor({
      run,
      handle,
      agent: plan.agent,
      resolved: plan.resolved,
      caller: plan.caller,
      tools: plan.tools,
      history,
      budget,
      tracker: plan.tracker,
      // No operator in a child: calls that would ask are denied before they run.
      isChild: true,
      maxIterations: plan.maxIterations,
    });
  }

  /** Returns as soon as the record exists and the child is announced. Throws with a
   * message when the child cannot be built or its record cannot be written. */
  startBackground(ctx: ToolCallOrigin, req: DelegateRequest): { taskId: string } {
    const { supervisor } = this;
    const plan = this.planner.plan(ctx, req);
    const launch: BackgroundLaunch = {
      taskId: this.tasks.newTaskId(),
      agent: req.target,
      callerChain: [...ctx.caller.callerChain],
      timeoutSecs: plan.timeoutSecs,
    };
    this.tasks.record(launch);
    const own = ownBudget(plan.runtime);
    const budget = own && { budget: own, role: 'root' as const };
    let runId = '';
    const outcome = supervisor.runChild({
      kind: 'background',
      parentRunId: ctx.runId,
      parentToolCallId: ctx.toolCallId,
      alias: req.target,
      task: req.task,
      model: plan.agent.acp ? acpLabel(basename(plan.agent.acp.command)) : plan.resolved.label,
      sessionKeyPrefix: 'background',
      // No parentSignal: the turn's cancellation does not reach it.
      timeoutSecs: plan.timeoutSecs,
      taskId: launch.taskId,
      isolation: req.isolation,
      tools: narrowToAgentTools(plan.tools, plan.agent.tools).names(),
      // An external ACP agent runs in the background as in the foreground: through its protocol.
      execute: (handle, run) =>
        this.tasks.track(launch, run.id, () =>
          plan.agent.acp
            ? runAcpTarget(supervisor, handle, run, plan, plan.agent.acp, req.task, () => undefined, this.notice)
            : this.execute(handle, run, plan, req.task, budget),
        ),
    });
    // runChild announces the run synchronously (detached from the turn's tree, as the root
    // of its own), so the newest run is this one.
    const s = supervisor.store.getState();
    const newest = s.runs.get(s.runOrder[s.runOrder.length - 1]);
    if (newest && newest.kind === 'background' && newest.parentToolCallId === ctx.toolCallId) runId = newest.id;
    this.tasks.adopt(launch, runId, ctx.runId, outcome);
    return { taskId: launch.taskId };
  }
}

/** SupervisorDeps.extraServices for the delegate tool: one DelegationService per supervisor,
 * handed to tools as `services.delegate`, bound to the tree budget of the calling loop. */
export function delegationServices(taskStore: TaskStore, startupWarning?: string): NonNullable<SupervisorDeps['extraServices']> {
  const services = new WeakMap<SupervisorCore, DelegationService>();
  return (supervisor, budget, notice) => {
    let service = services.get(supervisor);
    if (!service) {
      service = new DelegationService(supervisor, taskStore, notice);
      services.set(supervisor, service);
      if (startupWarning) notice('warn', t('delegate:notice.startupFailed', { error: startupWarning }));
    }
    return { delegate: service.forBudget(budget) };
  };
}
