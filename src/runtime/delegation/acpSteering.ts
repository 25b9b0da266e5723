// The prompts an external ACP child's session is fed: its task, then whatever the operator
// steered in while a turn ran, each as the next prompt of the same session. Once the
// session takes no more prompts, steering is closed (runtime.steer refuses from then on),
// and steering that was queued but never sent is reported, saying why, in the child's
// transcript and in the chat: however the child ended, nothing the operator typed is
// dropped without a word.
import { randomUUID } from 'node:crypto';
import type { AcpChildResult } from '../../acp/client/externalAgent.js';
import { t, type TranslationKey } from '../../i18n/index.js';
import { runName } from '../../model/run.js';
import { appendItem } from '../store.js';
import type { PostNotice, RunHandle, StopReason, SupervisorCore } from '../supervisorTypes.js';
import type { Run } from '../types.js';

/** What the feed needs of the child's transcript sink: its streaming items closed before a
 * new prompt's items start. */
interface TurnSink {
  finish(): void;
}

const STOPPED: Record<StopReason, TranslationKey> = {
  killed: 'delegate:acpSteerWhy.killed',
  timed_out: 'delegate:acpSteerWhy.timed_out',
  cancelled: 'delegate:acpSteerWhy.cancelled',
};

/** How the agent ended the session's last turn ('end_turn' with steering left over cannot
 * happen: that turn would have taken it; it reads as a plain stop). */
const ENDED: Record<AcpChildResult['stopReason'], TranslationKey> = {
  refusal: 'delegate:acpSteerWhy.refusal',
  cancelled: 'delegate:acpSteerWhy.agentCancelled',
  max_tokens: 'delegate:acpSteerWhy.max_tokens',
  max_turn_requests: 'delegate:acpSteerWhy.max_turn_requests',
  aborted: 'delegate:acpSteerWhy.stopped',
  end_turn: 'delegate:acpSteerWhy.stopped',
};

export class AcpSteering {
  private turns = 0;

  constructor(
    private readonly supervisor: SupervisorCore,
    private readonly handle: RunHandle,
    private readonly run: Run,
    private readonly sink: TurnSink,
    private readonly task: string,
    /** The chat's notice, where a refused steer is reported too. */
    private readonly chatNotice: PostNotice,
  ) {}

  /** The next prompt: the task first, then the steering queued meanwhile; undefined when
   * there is none (steering closes then) or the run was stopped. Pause holds it. */
  readonly next = async (): Promise<string | undefined> => {
    const { handle, sink } = this;
    const first = this.turns++ === 0;
    if (!first && handle.steering.length === 0) {
      // From here a steer would find no prompt to ride on: runtime.steer refuses it.
      handle.steeringClosed = true;
      return undefined;
    }
    if (handle.gate.paused) {
      // The operator sees why nothing moves: the agent's step is over, its next prompt waits.
      if (!first) sink.finish();
      this.notice('info', t('delegate:notice.acpPromptHeld', { label: runName(this.run) }));
      await handle.gate.wait(handle.controller.signal);
    }
    // Stopped (or ended) while held: the queued steering stays queued, so close() reports it
    // rather than it showing as sent.
    if (handle.controller.signal.aborted || handle.steeringClosed) return undefined;
    if (first) return this.task;
    const text = handle.steering.splice(0).join('\n\n');
    sink.finish();
    this.supervisor.recordUserItem(this.run.id, text);
    return text;
  };

  /** The session is over (`result` when it returned, `failure` when it threw): steering
   * closes, and any not sent is reported with the reason. */
  close(result: AcpChildResult | undefined, failure: unknown): void {
    const { handle } = this;
    handle.steeringClosed = true;
    // A steer the feed gave out just as the stop came was never sent either.
    const taken = result?.unsent !== undefined && this.turns > 1 ? [result.unsent] : [];
    const unsent = [...taken, ...handle.steering.splice(0)];
    if (unsent.length === 0) return;
    const text = t('delegate:notice.acpSteerUnsent', {
      label: runName(this.run),
      why: this.why(result, failure),
      text: unsent.join(' | '),
    });
    this.notice('error', text);
    this.chatNotice('error', text);
  }

  private why(result: AcpChildResult | undefined, failure: unknown): string {
    const { handle } = this;
    // The supervisor's own stop names itself (a per-child limit, a kill, the timeout, the
    // caller's cancel); otherwise the session says how it ended.
    if (handle.failure?.error) return t('delegate:acpSteerWhy.failed', { error: handle.failure.error });
    if (handle.stopReason) return t(STOPPED[handle.stopReason]);
    if (result === undefined)
      return t('delegate:acpSteerWhy.failed', { error: failure instanceof Error ? failure.message : String(failure) });
    return t(ENDED[result.stopReason]);
  }

  private notice(level: 'info' | 'error', text: string): void {
    appendItem(this.supervisor.store, this.run.id, { id: randomUUID(), kind: 'notice', level, text, at: Date.now() });
  }
}
