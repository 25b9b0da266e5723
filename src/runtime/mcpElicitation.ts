// Who answers a server's elicitation/create (a form it wants filled). Headless there is no
// operator: the form is declined, or with --yes accepted with its defaults when every
// required field has one. In the chat the form joins the operator's queue
// (controls.elicitations) labelled with the run that asked — the run whose MCP tool call
// was in flight on that server; the root, said so, when several runs or none had one — and
// the prompt answers it through RuntimeApi.answerElicitation. A run killed while its form
// waits takes the form away: the server is answered cancel. A server that gives up on its
// request (its cancellation) takes the form away too.
//
// URL mode (the server asks the operator to visit a page) follows the same queue, but the
// URL is opened only when the operator chooses so (openUrl, the sign-in's browser opener
// with a secret-free environment), and headless always declines, --yes included: visiting
// a page needs a person. The server's completion notice for a waiting request answers it
// accept (the step was done, wherever the operator did it).
import { randomUUID } from 'node:crypto';
import { t } from '../i18n/index.js';
import { acceptDefaults, type ElicitationAnswer, type ElicitationHandler, type ElicitationRequest } from '../mcp/elicitation.js';
import type { PendingElicitation } from '../model/controls.js';
import { isTerminal } from '../model/run.js';
import { neutralize, neutralizeDeep } from '../text/untrusted.js';
import type { RuntimeStore } from './store.js';

type Notice = (level: 'info' | 'warn' | 'error', text: string) => void;

export interface ElicitationBrokerOptions {
  interactive: boolean;
  autoYes: boolean;
  notice: Notice;
  /** A run starts or stops waiting for the operator (its timeout clock stops meanwhile). */
  onWaiting?(runId: string, waiting: boolean): void;
  /** Opens a URL in the operator's browser; false when there is none to start. */
  openUrl?(url: string): boolean;
}

interface Waiting {
  finish(answer: ElicitationAnswer | undefined): void;
  server: string;
  /** URL mode: the URL as the server sent it (the store has it neutralised) and its id. */
  url?: string;
  elicitationId?: string;
}

/** The headless policy: decline, or with --yes the defaults when every required field has one. */
export function elicitationPolicy(opts: { autoYes: boolean; notice: Notice }): ElicitationHandler {
  return async (req) => {
    if (req.mode === 'url') {
      opts.notice('warn', t('runtime:mcp.elicitUrlDeclined', { name: neutralize(req.server) }));
      return { action: 'decline' };
    }
    if (opts.autoYes) {
      const answer = acceptDefaults(req.fields);
      opts.notice(
        'info',
        t(answer.action === 'accept' ? 'runtime:mcp.elicitDefaults' : 'runtime:mcp.elicitNoDefaults', { name: req.server }),
      );
      return answer;
    }
    opts.notice('warn', t('runtime:mcp.elicitDeclined', { name: req.server }));
    return { action: 'decline' };
  };
}

export class ElicitationBroker {
  private readonly headless: ElicitationHandler;
  private pending = new Map<string, Waiting>();

  constructor(
    private readonly store: RuntimeStore,
    private readonly opts: ElicitationBrokerOptions,
  ) {
    this.headless = elicitationPolicy(opts);
  }

  readonly handler: ElicitationHandler = (req, signal) => (this.opts.interactive ? this.ask(req, signal) : this.headless(req, signal));

  answer(id: string, answer: ElicitationAnswer): void {
    this.pending.get(id)?.finish(answer);
  }

  /** The operator chose to open a URL request's page; the request stays for their answer. */
  openUrl(id: string): void {
    const waiting = this.pending.get(id);
    if (!waiting?.url) return;
    const opened = this.opts.openUrl?.(waiting.url) ?? false;
    if (!opened) {
      this.opts.notice('warn', t('runtime:mcp.elicitUrlNoBrowser', { name: neutralize(waiting.server) }));
      return;
    }
    this.store.setState((s) => ({
      controls: { ...s.controls, elicitations: (s.controls.elicitations ?? []).map((e) => (e.id === id ? { ...e, opened: true } : e)) },
    }));
  }

  /** notifications/elicitation/complete: the server saw the URL step finish. */
  readonly complete = (server: string, elicitationId: string): void => {
    for (const [id, waiting] of this.pending) {
      if (waiting.server !== server || waiting.elicitationId !== elicitationId) continue;
      this.opts.notice('info', t('runtime:mcp.elicitUrlComplete', { name: neutralize(server) }));
      this.answer(id, { action: 'accept', content: {} });
    }
  };

  /** Which run a request is for, and how sure that is. */
  private attribute(req: ElicitationRequest): Pick<PendingElicitation, 'runId' | 'attribution'> {
    const runs = this.store.getState().runs;
    const live = req.callers.filter((id) => {
      const run = runs.get(id);
      return run !== undefined && !isTerminal(run.status);
    });
    if (live.length === 1) return { runId: live[0], attribution: 'call' };
    const roots = runs.values().filter((r) => r.kind === 'root');
    const root = live.length > 0 ? runs.get(live[0])!.rootRunId : roots[roots.length - 1]?.id;
    return { runId: root ?? '', attribution: live.length > 1 ? 'shared' : 'unknown' };
  }

  private ask(req: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    const id = randomUUID();
    const who = this.attribute(req);
    const entry: PendingElicitation = {
      id,
      ...who,
      server: neutralize(req.server),
      message: neutralize(req.message),
      fields: neutralizeDeep(req.fields),
      createdAt: Date.now(),
      ...(req.mode === 'url' ? { mode: 'url' as const, url: neutralize(req.url ?? '') } : {}),
    };
    const set = (f: (list: PendingElicitation[]) => PendingElicitation[]) =>
      this.store.setState((s) => ({ controls: { ...s.controls, elicitations: f(s.controls.elicitations ?? []) } }));
    set((list) => [...list, entry]);
    const tracked = who.attribution === 'call';
    if (tracked) this.opts.onWaiting?.(who.runId, true);
    return new Promise<ElicitationAnswer>((resolve) => {
      let unsubscribe = () => {};
      const finish = (answer: ElicitationAnswer | undefined) => {
        if (!this.pending.delete(id)) return;
        unsubscribe();
        signal.removeEventListener('abort', onAbort);
        set((list) => list.filter((e) => e.id !== id));
        if (tracked) this.opts.onWaiting?.(who.runId, false);
        // Withdrawn by the server: it no longer reads an answer.
        resolve(answer ?? { action: 'cancel' });
      };
      const onAbort = () => finish(undefined);
      this.pending.set(id, { finish, server: req.server, url: req.url, elicitationId: req.elicitationId });
      if (tracked) {
        unsubscribe = this.store.subscribe((s) => {
          const run = s.runs.get(who.runId);
          if (!run || isTerminal(run.status)) queueMicrotask(() => finish({ action: 'cancel' }));
        });
      }
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
