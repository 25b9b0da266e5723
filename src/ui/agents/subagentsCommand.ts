// /subagents: list, kill, log, info, send, pause and resume child runs from the chat.
// Ids: `last`, a run's session number (3 or #3, the number in researcher#3, which never
// moves to another run), a run-id prefix, or a label.
import { t } from '../../i18n/index.js';
import { listedRuns, resolveRunRef, runLabel } from '../../runtime/runSelection.js';
import type { Run } from '../../model/run.js';
import type { RuntimeState } from '../../model/state.js';
import type { CommandContext, SlashCommand } from '../commands/registry.js';
import { killAll, killRun, pauseRun, resumeRun, setSpawning, steerRun, type ActionResult } from './actions.js';
import { formatInfo, formatList, formatLog, LOG_DEFAULT, LOG_MAX } from './subagentsFormat.js';

export const SUBAGENTS_USAGE =
  '/subagents [list | kill <id|#|all> | log <id|#> [limit] [tools] | info <id|#> | send <id|#> <message> | pause [<id|#>] | resume [<id|#>] | export [path]]';

const SUBCOMMANDS = ['list', 'kill', 'log', 'info', 'send', 'pause', 'resume', 'export'] as const;
type Sub = (typeof SUBCOMMANDS)[number];

function report(ctx: CommandContext, result: ActionResult): void {
  ctx.print(result.text, result.level);
}

/** The run `ref` names, or undefined after printing why not. */
function resolve(ctx: CommandContext, archiveAfterMinutes: number, ref: string | undefined, sub: Sub): Run | undefined {
  if (!ref) {
    ctx.print(t('agents:sub.needId', { sub, usage: SUBAGENTS_USAGE }), 'error');
    return undefined;
  }
  const s = ctx.runtime.store.getState();
  const res = resolveRunRef(s, listedRuns(s, archiveAfterMinutes), ref);
  if (res.ok) return res.run;
  if (res.reason === 'ambiguous') ctx.print(t('agents:sub.ambiguous', { ref, candidates: res.candidates.join(', ') }), 'error');
  else ctx.print(t('agents:sub.unknown', { ref }), 'error');
  return undefined;
}

/** The store's state with the runs the session file recorded added (live ones win). */
function withRecorded(ctx: CommandContext): RuntimeState {
  const s = ctx.runtime.store.getState();
  let recorded: Run[] = [];
  try {
    recorded = ctx.runtime.recordedRuns().runs.filter((r) => !s.runs.get(r.id));
  } catch {
    // No session file yet: only this process's runs.
  }
  if (recorded.length === 0) return s;
  return {
    ...s,
    runs: s.runs.withMany(recorded.map((r) => [r.id, r] as const)),
    runOrder: [...recorded.sort((a, b) => a.createdAt - b.createdAt).map((r) => r.id), ...s.runOrder],
  };
}

function parseLogOptions(args: string[]): { limit: number; tools: boolean } | { error: string } {
  let limit = LOG_DEFAULT;
  let tools = false;
  let sawLimit = false;
  for (const arg of args) {
    if (arg.toLowerCase() === 'tools' && !tools) tools = true;
    else if (/^\d+$/.test(arg) && !sawLimit) {
      const n = Number(arg);
      if (n < 1 || n > LOG_MAX) return { error: t('agents:sub.badLimit', { value: arg, max: LOG_MAX }) };
      limit = n;
      sawLimit = true;
    } else if (!sawLimit && /^-?\d/.test(arg)) return { error: t('agents:sub.badLimit', { value: arg, max: LOG_MAX }) };
    else return { error: t('agents:sub.badLogArg', { value: arg }) };
  }
  return { limit, tools };
}

/** Each subcommand with the arguments after it; `archive`: [delegation]
 * archive_after_minutes, which runs are still listed. */
type SubHandler = (rest: string[], ctx: CommandContext, archive: number, sub: Sub) => void;

const pauseOrResume: SubHandler = (rest, ctx, archive, sub) => {
  if (rest.length > 1) return ctx.print(t('agents:sub.usagePauseResume', { sub }), 'error');
  if (rest.length === 0) return spawning(ctx, sub === 'pause');
  const run = resolve(ctx, archive, rest[0], sub);
  if (run) report(ctx, sub === 'pause' ? pauseRun(ctx.runtime, run.id) : resumeRun(ctx.runtime, run.id));
};

const SUBS: Record<Sub, SubHandler> = {
  list(rest, ctx, archive, sub) {
    if (rest.length) return ctx.print(t('agents:sub.noArgs', { sub }), 'error');
    const s = ctx.runtime.store.getState();
    ctx.print(formatList(s, listedRuns(s, archive), archive));
  },
  kill(rest, ctx, archive) {
    if (rest.length !== 1) return ctx.print(t('agents:sub.usageKill'), 'error');
    if (rest[0].toLowerCase() === 'all') {
      const count = killAll(ctx.runtime, true);
      return ctx.print(count ? t('agents:sub.killedAll', { count }) : t('agents:sub.nothingToKill'));
    }
    const run = resolve(ctx, archive, rest[0], 'kill');
    if (run) report(ctx, killRun(ctx.runtime, run.id));
  },
  log(rest, ctx, archive) {
    const run = resolve(ctx, archive, rest[0], 'log');
    if (!run) return;
    const parsed = parseLogOptions(rest.slice(1));
    if ('error' in parsed) return ctx.print(parsed.error, 'error');
    const s = ctx.runtime.store.getState();
    ctx.print(formatLog(runLabel(s, run.id), s.runTranscripts.get(run.id) ?? [], parsed.limit, parsed.tools));
  },
  info(rest, ctx, archive) {
    if (rest.length > 1) return ctx.print(t('agents:sub.usageInfo'), 'error');
    // A resumed session's earlier runs are in its file, not in the store: info reads
    // them (their ledger included) beside this process's runs.
    const s = withRecorded(ctx);
    const res = rest[0] ? resolveRunRef(s, listedRuns(s, archive), rest[0]) : undefined;
    if (res?.ok && !ctx.runtime.store.getState().runs.get(res.run.id)) return ctx.print(formatInfo(s, res.run));
    const run = resolve(ctx, archive, rest[0], 'info');
    const now = ctx.runtime.store.getState();
    if (run) ctx.print(formatInfo(now, now.runs.get(run.id) ?? run));
  },
  send(rest, ctx, archive) {
    const run = resolve(ctx, archive, rest[0], 'send');
    if (!run) return;
    const message = rest.slice(1).join(' ');
    if (!message.trim()) return ctx.print(t('agents:sub.usageSend'), 'error');
    report(ctx, steerRun(ctx.runtime, run.id, message));
  },
  pause: pauseOrResume,
  resume: pauseOrResume,
  export(rest, ctx) {
    const path = rest.join(' ').trim() || undefined;
    try {
      const done = ctx.runtime.exportTree(path);
      ctx.print(t('ledger:exported', done));
    } catch (err) {
      ctx.print(t('ledger:exportFailed', { path: path ?? '$ARBOR_HOME/exports', error: (err as Error).message }), 'error');
    }
  },
};

export function subagentsCommand(opts: { archiveAfterMinutes: number }): SlashCommand {
  const archive = opts.archiveAfterMinutes;
  return {
    name: 'subagents',
    summary: 'agents:commands.subagents',
    usage: SUBAGENTS_USAGE,
    completeArgs(args, _partial, { runtime }) {
      if (args.length === 0) return [...SUBCOMMANDS];
      const sub = args[0].toLowerCase();
      if (args.length > 1 || !['kill', 'log', 'info', 'send', 'pause', 'resume'].includes(sub)) return [];
      // Labels of the listed runs, as /subagents takes them (researcher#2), newest first.
      const s = runtime.store.getState();
      const labels = listedRuns(s, archive).map((r) => runLabel(s, r.id));
      return sub === 'kill' ? [...labels, 'all'] : labels;
    },
    run(args, ctx) {
      const sub = (args[0] ?? 'list').toLowerCase();
      if (!Object.hasOwn(SUBS, sub)) {
        ctx.print(t('agents:sub.unknownSub', { sub: args[0], list: SUBCOMMANDS.join(', '), usage: SUBAGENTS_USAGE }), 'error');
        return;
      }
      SUBS[sub as Sub](args.slice(1), ctx, archive, sub as Sub);
    },
  };
}

/** `pause` / `resume` with no id act on spawning; `resume` also answers a tripped runaway
 * guard with "resume". */
function spawning(ctx: CommandContext, pause: boolean): void {
  const runtime = ctx.runtime;
  if (pause) return report(ctx, setSpawning(runtime, true));
  const tripped = runtime.store.getState().controls.runaway.tripped;
  const resolved = tripped ? runtime.resolveRunaway('resume') : false;
  report(ctx, setSpawning(runtime, false));
  if (resolved) ctx.print(t('agents:sub.guardResumed'));
}
