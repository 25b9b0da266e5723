// What /subagents list, info and log print. Output must read well in a narrow terminal:
// no tables, each entry on its own short lines, long text cut.
import { t, type KeyUnder } from '../../i18n/index.js';
import { worktreeInfo } from '../worktrees/worktreeText.js';
import { runLabel, runLabels } from '../../runtime/runSelection.js';
import type { RuntimeState } from '../../model/state.js';
import { runName, type Run } from '../../model/run.js';
import { subtreeUsageOf } from '../../model/usage.js';
import { childObserved } from '../../model/ledger.js';
import { flagLabel, flagReason, observedLine } from '../../model/ledgerText.js';
import type { TranscriptItem } from '../../model/transcript.js';
import { firstLine, formatCost, formatElapsed, formatTokens, summarizeArgs } from '../text/format.js';
import { truncate } from '../text/width.js';
import { kindWord, statusText } from './status.js';
import { activeMs, runErrorText } from '../runDisplay.js';

const TASK_WIDTH = 60;
/** A log message longer than this is cut; the full text stays in the session log. */
export const LOG_MESSAGE_CHARS = 600;
export const LOG_DEFAULT = 20;
export const LOG_MAX = 200;

const iso = (ms: number | undefined) => (ms === undefined ? t('agents:info.none') : new Date(ms).toISOString());

export function formatList(s: RuntimeState, list: Run[], archiveAfterMinutes: number, now = Date.now()): string {
  const lines: string[] = [];
  if (s.controls.spawnPaused) lines.push(t('agents:list.spawnPaused'));
  const guard = s.controls.runaway;
  if (guard.tripped)
    lines.push(
      t('agents:list.guardTripped', { threshold: guard.threshold ?? '?', limit: guard.limit ?? '?', measured: guard.measured ?? '?' }),
    );
  if (list.length === 0) {
    lines.push(t('agents:list.none', { minutes: archiveAfterMinutes }));
    return lines.join('\n');
  }
  lines.push(t('agents:list.title', { count: list.length, minutes: archiveAfterMinutes }));
  const labels = runLabels(s);
  const first = list.find((r) => r.number !== undefined);
  if (first) lines.push(t('agents:numbers.listHint', { label: runName(first), n: first.number }));
  list.forEach((run) => {
    lines.push(`${labels.get(run.id) ?? run.shortId} · ${statusText(run)}`);
    lines.push(
      `   ${t('agents:list.detail', {
        model: run.model,
        runtime: formatElapsed(activeMs(run, now), { compact: true }),
        tokens: formatTokens(run.tokensIn + run.tokensOut),
      })}`,
    );
    const task = run.task.replace(/\s+/g, ' ').trim();
    if (task) lines.push(`   ${truncate(task, TASK_WIDTH)}`);
  });
  return lines.join('\n');
}

function toolLine(tool: Run['lastTool']): string {
  if (!tool) return t('agents:info.none');
  const state =
    tool.finishedAt === undefined ? t('agents:info.toolRunning') : tool.success ? t('agents:info.toolOk') : t('agents:info.toolFailed');
  return `${tool.name} (${state})`;
}

/** The run with everything under it: tokens, cost and how many runs. */
function subtreeValue(s: RuntimeState, run: Run): string {
  const sum = subtreeUsageOf(s.runs, s.runOrder, run.id);
  return t('agents:info.subtreeValue', { in: sum.tokensIn, out: sum.tokensOut, cost: formatCost(sum.costUsd), count: sum.descendants });
}

/** The per-child limits in force, as the config names them. */
function limitsValue(run: Run): string {
  const entries = Object.entries(run.limits ?? {});
  return entries.length ? entries.map(([k, v]) => `${k} = ${v}`).join(', ') : t('agents:info.noLimits');
}

/** The ledger's summary of the run with its subtree, and its flags with their reasons. */
type InfoField = KeyUnder<'agents:info.fields.'>;

function observedFields(s: RuntimeState, run: Run): Array<[InfoField, string]> {
  const o = childObserved(s.runs, s.runOrder, run.id);
  const flags = run.kind === 'root' ? [] : o.flags;
  return [
    ['observed', observedLine(o.summary)],
    ['flags', flags.length ? flags.map((f) => `⚠ ${flagLabel(f)}: ${flagReason(f, o.summary)}`).join('; ') : t('agents:info.none')],
  ];
}

export function formatInfo(s: RuntimeState, run: Run, now = Date.now()): string {
  const none = t('agents:info.none');
  const ref = (id: string | undefined) => (id && s.runs.get(id) ? `${runLabel(s, id)} (${id})` : (id ?? none));
  const pausedNow = run.pausedAt !== undefined && run.endedAt === undefined ? now - run.pausedAt : 0;
  const fields: Array<[InfoField, string]> = [
    ['id', run.id],
    ['label', runLabel(s, run.id)],
    ['kind', kindWord(run)],
    ['alias', run.alias],
    ['status', statusText(run)],
    ['task', truncate(run.task.replace(/\s+/g, ' ').trim() || none, 200)],
    ['parent', ref(run.parentRunId)],
    ['root', ref(run.rootRunId)],
    ['depth', String(run.depth)],
    ['sessionKey', run.sessionKey],
    ['model', run.model],
    ['created', iso(run.createdAt)],
    ['started', iso(run.startedAt)],
    ['ended', iso(run.endedAt)],
    ['runtime', formatElapsed(activeMs(run, now), { compact: true })],
    ['pausedTime', formatElapsed(run.pausedMs + pausedNow, { compact: true })],
    ['iterations', String(run.iterations)],
    ['tools', String(run.toolsCompleted)],
    ['lastTool', toolLine(run.lastTool)],
    ['recentTools', run.recentTools.length ? run.recentTools.map((x) => `${x.name} ${x.success ? '✓' : '✗'}`).join(', ') : none],
    ['tokens', t('agents:info.tokensValue', { in: run.tokensIn, out: run.tokensOut })],
    ['cost', formatCost(run.costUsd)],
    ['subtree', subtreeValue(s, run)],
    ['limits', limitsValue(run)],
    ['result', truncate(firstLine(run.result), 200) || none],
    ['error', truncate(firstLine(runErrorText(run)), 200) || none],
    ['queuePosition', run.queuePosition !== undefined ? String(run.queuePosition) : none],
    ['taskId', run.taskId ?? none],
    ...(run.worktree ? [['worktree', worktreeInfo(run.worktree)] as [InfoField, string]] : []),
    ...observedFields(s, run),
  ];
  return fields.map(([k, v]) => `${t(`agents:info.fields.${k}`)}: ${v}`).join('\n');
}

function cut(text: string): string {
  const clean = text.replace(/\s+$/, '');
  if (clean.length <= LOG_MESSAGE_CHARS) return clean;
  return `${clean.slice(0, LOG_MESSAGE_CHARS)}… ${t('agents:log.cut', { count: clean.length - LOG_MESSAGE_CHARS })}`;
}

const indent = (text: string) => text.replace(/\n/g, '\n  ');

function logEntry(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user':
      return `[${t('agents:log.user')}] ${indent(cut(item.text))}`;
    case 'assistant':
      return `[${t('agents:log.assistant')}] ${indent(cut(item.text))}`;
    case 'notice':
      return `[${t('agents:log.notice')}] ${indent(cut(item.text))}`;
    case 'tool': {
      const args = truncate(summarizeArgs(item.args, item.rawArgs), 80);
      const head = `[${t('agents:log.tool', { name: item.name, status: t(`agents:log.toolStatus.${item.status}`) })}]${args ? ` ${args}` : ''}`;
      return item.result ? `${head}\n  ${indent(cut(item.result))}` : head;
    }
  }
}

export function formatLog(label: string, items: TranscriptItem[], limit: number, toolsOnly: boolean): string {
  const pool = toolsOnly ? items.filter((i) => i.kind === 'tool') : items;
  if (pool.length === 0) return t(toolsOnly ? 'agents:log.noTools' : 'agents:log.empty', { label });
  const shown = pool.slice(-limit);
  const title = t(toolsOnly ? 'agents:log.titleTools' : 'agents:log.title', { label, shown: shown.length, total: pool.length });
  return [title, ...shown.map(logEntry)].join('\n');
}
