// Headless mode (arbor -p): one turn on the same runtime, no Ink. The final answer goes to
// stdout; diagnostics to stderr. With --output json, one JSON event per line on stdout.
import { t } from '../i18n/index.js';
import type { Runtime } from '../runtime/runtime.js';
import type { RuntimeState } from '../runtime/types.js';
import { runLabels } from '../runtime/runSelection.js';
import { subtreeUsage } from '../model/usage.js';
import type { TranscriptItem } from '../model/transcript.js';
import type { ToolDisplay } from '../model/toolDisplay.js';
import { diffCounts } from '../text/diff.js';

export interface HeadlessOptions {
  output: 'text' | 'json';
  /** Text output: the answer with its control characters intact. */
  raw?: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

type Emit = (event: Record<string, unknown>) => void;

/** Watches the session transcript and reports what changed since the last look. */
function transcriptWatcher(emit: Emit) {
  const textSeen = new Map<string, number>();
  const reasoningSeen = new Map<string, number>();
  const toolState = new Map<string, string>();
  return (items: TranscriptItem[]) => {
    for (const item of items) {
      if (item.kind === 'assistant') {
        // Reasoning is its own event, never part of the answer's text deltas.
        const thought = reasoningSeen.get(item.id) ?? 0;
        if (typeof item.reasoning === 'string' && item.reasoning.length > thought) {
          emit({ type: 'reasoning', delta: item.reasoning.slice(thought) });
          reasoningSeen.set(item.id, item.reasoning.length);
        }
        const seen = textSeen.get(item.id) ?? 0;
        if (item.text.length > seen) {
          emit({ type: 'text', delta: item.text.slice(seen) });
          textSeen.set(item.id, item.text.length);
        }
      } else if (item.kind === 'tool') {
        const prev = toolState.get(item.id);
        if (prev === undefined) emit({ type: 'tool_call', call_id: item.callId, name: item.name, args: item.args ?? item.rawArgs });
        if (prev !== item.status && item.status !== 'running' && item.status !== 'pending_approval') {
          emit({
            type: 'tool_result',
            call_id: item.callId,
            name: item.name,
            status: item.status,
            result: item.result ?? '',
            // What the result means, as data (model/toolDisplay.ts); absent when the call never ran.
            ...(item.display ? { display: item.display } : {}),
          });
        }
        toolState.set(item.id, item.status);
      } else if (item.kind === 'notice') {
        if (!toolState.has(item.id)) {
          toolState.set(item.id, 'seen');
          emit({ type: 'notice', level: item.level, text: item.text });
        }
      }
    }
  };
}

/** The final answer as the model sent it: the last assistant message of the history (the
 * store keeps only the neutralised copy). */
function rawAnswer(runtime: Runtime): string | undefined {
  for (let i = runtime.history.length - 1; i >= 0; i--) {
    const m = runtime.history[i];
    if (m.role === 'assistant') return m.content;
  }
  return undefined;
}

/** Per run of this process: its own tokens and cost, its subtree's (itself and every
 * descendant), and the model it ran on. */
function runUsage(state: RuntimeState): Record<string, unknown>[] {
  const sums = subtreeUsage(state.runs, state.runOrder);
  const labels = runLabels(state);
  return state.runOrder.flatMap((id) => {
    const r = state.runs[id];
    const sub = sums.get(id);
    if (!r || !sub) return [];
    return [
      {
        id: r.id,
        label: r.kind === 'root' ? r.alias : (labels.get(r.id) ?? r.shortId),
        kind: r.kind,
        alias: r.alias,
        parent_id: r.parentRunId ?? null,
        status: r.status,
        model: r.model,
        tokens_in: r.tokensIn,
        tokens_out: r.tokensOut,
        cost_usd: r.costUsd,
        subtree_tokens_in: sub.tokensIn,
        subtree_tokens_out: sub.tokensOut,
        subtree_cost_usd: sub.costUsd,
        ...(r.limits ? { limits: r.limits } : {}),
      },
    ];
  });
}

/** Runs one turn; resolves to the process exit code. */
export async function runHeadless(runtime: Runtime, prompt: string, opts: HeadlessOptions): Promise<number> {
  const json = opts.output === 'json';
  const writeJson: Emit = (e) => opts.stdout.write(`${JSON.stringify(e)}\n`);
  // The turn's own "Interrupted." notice is left out: a headless turn is interrupted only
  // by a signal, and the shutdown's one line (cli/shutdown.ts) says so.
  const interruptedNotice = t('runtime:interrupted');
  const diag: Emit = (e) => {
    if (e.type === 'tool_result') {
      opts.stderr.write(`${t('cli:headlessTool', { name: e.name, status: e.status })}\n`);
      // A file change also reads as its path and counts: "write_file src/a.ts +12 −3".
      const d = e.display as ToolDisplay | undefined;
      if (d?.kind === 'diff') opts.stderr.write(`${e.name} ${d.path} ${diffCounts(d)}\n`);
    } else if (e.type === 'notice' && e.level !== 'info' && e.text !== interruptedNotice) opts.stderr.write(`${e.text}\n`);
  };
  const watch = transcriptWatcher(json ? writeJson : diag);
  let lastRetry: string | undefined;
  const unsubscribe = runtime.store.subscribe((s: RuntimeState) => {
    watch(s.transcript);
    if (s.retryNotice && s.retryNotice !== lastRetry) {
      lastRetry = s.retryNotice;
      if (json) writeJson({ type: 'retry', text: s.retryNotice });
      else opts.stderr.write(`${s.retryNotice}\n`);
    }
  });
  // SIGINT / SIGTERM / SIGHUP are handled by cli/shutdown.ts: it stops the turn, which
  // ends here as cancelled, and owns the exit.
  try {
    await runtime.startTurn(prompt);
  } finally {
    unsubscribe();
  }
  const state = runtime.store.getState();
  watch(state.transcript);
  const root = [...state.runOrder]
    .reverse()
    .map((id) => state.runs[id])
    .find((r) => r?.kind === 'root');
  const status = root?.status ?? 'failed';
  if (json) {
    writeJson({
      type: 'usage',
      input_tokens: state.totals.tokensIn,
      output_tokens: state.totals.tokensOut,
      cost_usd: state.totals.costUsd,
    });
    writeJson({ type: 'final', status, text: root?.result ?? '', error: root?.error, runs: runUsage(state) });
  } else if (status === 'completed') {
    const answer = opts.raw ? (rawAnswer(runtime) ?? root?.result ?? '') : (root?.result ?? '');
    opts.stdout.write(answer.endsWith('\n') ? answer : `${answer}\n`);
  }
  if (status === 'completed') return 0;
  if (status === 'cancelled' || status === 'killed') return 130;
  return 1;
}
