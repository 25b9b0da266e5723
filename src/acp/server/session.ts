// One ACP session bound to one arbor runtime: the store is watched and every change becomes
// session/update notifications (root transcript on the session, each child on its own
// session when the client understands subagents), every pending approval becomes a
// session/request_permission on the asking run's session.
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { Runtime } from '../../runtime/runtime.js';
import type { Run, RuntimeState, ApprovalAnswer, PendingApproval, TranscriptItem } from '../../runtime/types.js';
import { t } from '../../i18n/index.js';
import { TranscriptStream } from './toolUpdates.js';
import { announcement, flatProgress, flatStatus, pauseWhy, stateUpdate, workState } from './children.js';
import { runName } from '../../model/run.js';
import { availableCommands, runCommand } from './commands.js';

/** A runtime opened for a session, and how to let it go. */
export interface OpenedRuntime {
  runtime: Runtime;
  /** arbor's session id (the session file's): the ACP session id too. */
  sessionId: string;
  cleanup(): Promise<void>;
}

export interface SessionOptions {
  cwd: string;
  /** clientCapabilities.subagents was advertised. */
  subagents: boolean;
  /** clientCapabilities.session.notices was advertised. */
  notices?: boolean;
  /** Where diagnostics go (stderr): never stdout. */
  log: (line: string) => void;
}

interface ChildView {
  sessionId: string;
  stream: TranscriptStream;
  lastState: string;
  linked: boolean;
}

const ROOT_CHOICES: ApprovalAnswer[] = ['allow_once', 'allow_session', 'deny'];
const CHILD_CHOICES: ApprovalAnswer[] = ['allow_once', 'allow_child', 'allow_tree', 'deny'];

function optionKind(a: ApprovalAnswer): acp.PermissionOptionKind {
  if (a === 'allow_once') return 'allow_once';
  if (a === 'deny') return 'reject_once';
  return 'allow_always';
}

export class AcpSession {
  readonly id: string;
  private readonly root: TranscriptStream;
  private readonly children = new Map<string, ChildView>();
  private readonly asked = new Set<string>();
  private readonly flatSeen = new Map<string, string>();
  private readonly noticesSeen = new Set<string>();
  private runawayAsked?: number;
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe?: () => void;
  private closed = false;

  constructor(
    private readonly client: acp.AgentContext,
    readonly opened: OpenedRuntime,
    private readonly opts: SessionOptions,
  ) {
    this.id = opened.sessionId;
    this.root = new TranscriptStream(opts.cwd);
  }

  get runtime(): Runtime {
    return this.opened.runtime;
  }

  /** Starts watching; `replay` (session/load) sends the recorded history first. */
  start(replay: boolean): void {
    const state = this.runtime.store.getState();
    if (replay) this.send(this.id, new TranscriptStream(this.opts.cwd, true).updates(state.transcript));
    this.root.skip(state.transcript);
    for (const item of state.transcript) if (item.kind === 'notice') this.noticesSeen.add(item.id);
    for (const run of state.runs.values()) if (run.kind !== 'root') this.flatSeen.set(run.id, 'restored');
    this.unsubscribe = this.runtime.store.subscribe((s: RuntimeState) => this.onState(s));
    this.send(this.id, [{ sessionUpdate: 'available_commands_update', availableCommands: availableCommands() }]);
  }

  /** Whether `sessionId` is this session or one of its children. */
  owns(sessionId: string): boolean {
    return sessionId === this.id || this.childRun(sessionId) !== undefined;
  }

  /** Every notification queued so far has been written. */
  flushed(): Promise<void> {
    return this.queue;
  }

  async prompt(text: string): Promise<acp.StopReason> {
    const command = runCommand(this.runtime, text);
    if (command) {
      this.send(this.id, command);
      await this.flushed();
      return 'end_turn';
    }
    await this.runtime.startTurn(text);
    const state = this.runtime.store.getState();
    this.onState(state);
    const root = [...state.runOrder]
      .reverse()
      .map((id) => state.runs.get(id))
      .find((r) => r?.kind === 'root');
    if (root?.status === 'failed' && root.error) {
      this.send(this.id, [
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t('acp:turnFailed', { error: root.error }) } },
      ]);
    }
    await this.flushed();
    return root?.status === 'cancelled' || root?.status === 'killed' ? 'cancelled' : 'end_turn';
  }

  /** session/cancel: the root session stops the turn; a child's session kills that child and its subtree. */
  cancel(sessionId: string): void {
    if (sessionId === this.id) {
      this.runtime.interrupt();
      return;
    }
    const runId = this.childRun(sessionId);
    if (runId) this.runtime.kill(runId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    this.runtime.interrupt();
    await this.flushed();
    await this.opened.cleanup();
  }

  private childRun(sessionId: string): string | undefined {
    for (const [runId, v] of this.children) if (v.sessionId === sessionId) return runId;
    return undefined;
  }

  private send(sessionId: string, updates: acp.SessionUpdate[]): void {
    for (const update of updates) {
      this.queue = this.queue
        .then(() => this.client.notify('session/update', { sessionId, update }))
        .catch((err: unknown) => this.opts.log(`acp: session/update on ${sessionId} failed: ${(err as Error).message}`));
    }
  }

  private onState(s: RuntimeState): void {
    if (this.closed) return;
    this.send(this.id, this.root.updates(s.transcript));
    for (const run of s.runs.values()) {
      if (run.kind === 'root') continue;
      if (this.opts.subagents) this.exposeChild(s, run);
      else this.flattenChild(s, run);
    }
    for (const a of s.controls.approvals) if (!this.asked.has(a.id)) this.ask(s, a);
    for (const f of s.controls.fanouts ?? []) if (!this.asked.has(f.id)) this.askFanout(s, f);
    const runaway = s.controls.runaway;
    if (runaway.tripped && runaway.at !== undefined && runaway.at !== this.runawayAsked)
      this.askRunaway(runaway.at, runaway.threshold ?? '');
    this.notices(s);
  }

  /** Budgets, the runaway guard, quota pauses and the like speak as notices: live notices
   * for a client that shows them, else warnings and errors join the answer's stream. */
  private notices(s: RuntimeState): void {
    for (const item of s.transcript) {
      if (item.kind !== 'notice' || this.noticesSeen.has(item.id)) continue;
      this.noticesSeen.add(item.id);
      if (this.opts.notices) {
        const severity = item.level === 'warn' ? 'warning' : item.level;
        this.send(this.id, [{ sessionUpdate: 'notice', severity, title: item.text }]);
      } else if (item.level !== 'info') {
        this.send(this.id, [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n${item.text}\n\n` } }]);
      }
    }
  }

  /** A fan-out over confirm_fanout_over: start all of its children, or none. */
  private askFanout(s: RuntimeState, f: NonNullable<RuntimeState['controls']['fanouts']>[number]): void {
    this.asked.add(f.id);
    const count = f.children.length;
    const params: acp.RequestPermissionRequest = {
      sessionId: this.sessionOf(f.runId, s),
      toolCall: {
        toolCallId: `fanout-${f.id}`,
        title: t('acp:fanout.title', { count, limit: f.limit }),
        kind: 'other',
        status: 'pending',
        rawInput: f.children,
      },
      options: [
        { optionId: 'all', name: t('acp:fanout.all', { count }), kind: 'allow_once' },
        { optionId: 'none', name: t('acp:fanout.none'), kind: 'reject_once' },
      ],
    };
    this.request(
      params,
      (picked) => this.runtime.answerFanout?.(f.id, picked === 'all' ? count : 0),
      () => this.runtime.answerFanout?.(f.id, 0),
    );
  }

  /** The runaway guard tripped: resume the tree or kill it. */
  private askRunaway(at: number, threshold: string): void {
    this.runawayAsked = at;
    const params: acp.RequestPermissionRequest = {
      sessionId: this.id,
      toolCall: { toolCallId: `runaway-${at}`, title: t('acp:runaway.title', { threshold }), kind: 'other', status: 'pending' },
      options: [
        { optionId: 'resume', name: t('acp:runaway.resume'), kind: 'allow_once' },
        { optionId: 'kill', name: t('acp:runaway.kill'), kind: 'reject_once' },
      ],
    };
    this.request(
      params,
      (picked) => this.runtime.resolveRunaway(picked === 'resume' ? 'resume' : 'kill'),
      () => undefined,
    );
  }

  private request(params: acp.RequestPermissionRequest, answered: (optionId: string | undefined) => void, failed: () => void): void {
    this.queue
      .then(() => this.client.request('session/request_permission', params))
      .then((res) => answered(res.outcome.outcome === 'selected' ? res.outcome.optionId : undefined))
      .catch((err: unknown) => {
        this.opts.log(`acp: session/request_permission failed: ${(err as Error).message}`);
        failed();
      });
  }

  /** The session a run's updates go to: the root's, or the child's own. */
  private sessionOf(runId: string | undefined, s: RuntimeState): string {
    const run = runId ? s.runs.get(runId) : undefined;
    if (!run || run.kind === 'root' || !this.opts.subagents) return this.id;
    return this.children.get(run.id)?.sessionId ?? this.id;
  }

  private transcriptOf(s: RuntimeState, run: Run | undefined): readonly TranscriptItem[] {
    if (!run || run.kind === 'root') return s.transcript;
    return s.runTranscripts.get(run.id) ?? [];
  }

  private exposeChild(s: RuntimeState, run: Run): void {
    let view = this.children.get(run.id);
    const parentSession = this.sessionOf(run.parentRunId, s);
    const why = pauseWhy(s, run);
    // A paused child's reason is part of its state: a quota pause turning into a runaway
    // pause (or the operator's) is news to the editor.
    const stateKey = `${run.status}|${why?.text ?? ''}`;
    if (!view) {
      view = {
        sessionId: `${this.id}.${run.number ?? run.shortId}`,
        stream: new TranscriptStream(this.opts.cwd),
        lastState: '',
        linked: false,
      };
      this.children.set(run.id, view);
      this.send(parentSession, [{ sessionUpdate: 'subagent_update', ...announcement(run, view.sessionId, this.opts.cwd, why) }]);
      view.lastState = stateKey;
    } else if (view.lastState !== stateKey) {
      view.lastState = stateKey;
      this.send(parentSession, [
        {
          sessionUpdate: 'subagent_update',
          sessionId: view.sessionId,
          state: stateUpdate(run, why),
          _meta: { arbor: { workState: workState(run), status: run.status, ...(why ? { pausedBy: why.by, pausedWhy: why.text } : {}) } },
        },
      ]);
    }
    if (!view.linked) this.link(s, run, view, parentSession);
    this.send(view.sessionId, view.stream.updates(s.runTranscripts.get(run.id) ?? []));
  }

  /** The parent's spawn_subagent / delegate call points at the child's session. */
  private link(s: RuntimeState, run: Run, view: ChildView, parentSession: string): void {
    const parent = run.parentRunId ? s.runs.get(run.parentRunId) : undefined;
    const item = this.transcriptOf(s, parent).find(
      (i) => i.kind === 'tool' && i.callId === run.parentToolCallId && i.runId === run.parentRunId,
    );
    if (!item) return;
    view.linked = true;
    const link = { type: 'session', sessionId: view.sessionId } as unknown as acp.ToolCallContent;
    const stream = parentSession === this.id ? this.root : [...this.children.values()].find((c) => c.sessionId === parentSession)?.stream;
    stream?.addLink(item.id, link);
    this.send(parentSession, [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: item.id,
        content: stream?.linksOf(item.id) ?? [link],
        _meta: { arbor: { childSessionIds: stream?.linkedSessions(item.id) } },
      },
    ]);
  }

  private flattenChild(s: RuntimeState, run: Run): void {
    const why = pauseWhy(s, run);
    const progress = `${run.status}|${run.toolsCompleted}|${run.lastTool?.name ?? ''}|${why?.text ?? ''}`;
    const prev = this.flatSeen.get(run.id);
    if (prev === progress || prev === 'restored') return;
    this.flatSeen.set(run.id, progress);
    const content: acp.ToolCallContent[] = [{ type: 'content', content: { type: 'text', text: flatProgress(run, why) } }];
    const toolCallId = `child-${run.id}`;
    if (prev === undefined) {
      this.send(this.id, [
        {
          sessionUpdate: 'tool_call',
          toolCallId,
          title: t('acp:child.flatTitle', { label: runName(run), model: run.model, task: run.task.slice(0, 120) }),
          kind: 'other',
          status: flatStatus(run),
          content,
          _meta: { arbor: { runId: run.id, agent: run.alias, model: run.model, workState: workState(run) } },
        },
      ]);
    } else {
      this.send(this.id, [
        {
          sessionUpdate: 'tool_call_update',
          toolCallId,
          status: flatStatus(run),
          content,
          _meta: { arbor: { workState: workState(run), ...(why ? { pausedBy: why.by } : {}) } },
        },
      ]);
    }
  }

  private ask(s: RuntimeState, a: PendingApproval): void {
    this.asked.add(a.id);
    const run = s.runs.get(a.runId);
    const item = this.transcriptOf(s, run).find((i) => i.kind === 'tool' && i.callId === a.callId && i.runId === a.runId);
    const sessionId = this.sessionOf(a.runId, s);
    const choices = a.isChild ? CHILD_CHOICES : ROOT_CHOICES;
    const label = run && run.kind !== 'root' ? runName(run) : (run?.alias ?? '');
    const params: acp.RequestPermissionRequest = {
      sessionId,
      toolCall: {
        toolCallId: item?.id ?? `approval-${a.id}`,
        title: t('acp:permission.title', { label, tool: a.tool }),
        rawInput: a.args,
        status: 'pending',
      },
      options: choices.map((c) => ({ optionId: c, name: t(`acp:permission.${c}`), kind: optionKind(c) })),
      _meta: { arbor: { approvalId: a.id, runId: a.runId, tool: a.tool } },
    };
    this.queue
      .then(() => this.client.request('session/request_permission', params))
      .then((res) => {
        const picked = res.outcome.outcome === 'selected' ? (res.outcome.optionId as ApprovalAnswer) : 'deny';
        this.runtime.answerApproval(a.id, choices.includes(picked) ? picked : 'deny');
      })
      .catch((err: unknown) => {
        this.opts.log(`acp: session/request_permission for ${a.tool} failed: ${(err as Error).message}`);
        this.runtime.answerApproval(a.id, 'deny');
      });
  }
}
