// A session's run tree as a report (`/subagents export`, `arbor export`): per run its place
// in the tree, who ran it on which model, its task, status and times, what it spent, what the
// runtime observed it do (files with stats, commands with exit codes, flags), the approvals
// it needed and how they were answered, and its final answer (capped), with subtree totals.
// Markdown or JSON; secrets scrubbed as in session files; written 0600.
import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { arborHome } from '../../config/paths.js';
import { childObserved, commandEnding, subtreeObserved, type RunLedger } from '../../model/ledger.js';
import { flagLabel, flagReason } from '../../model/ledgerText.js';
import type { Run } from '../../model/run.js';
import { subtreeUsage } from '../../model/usage.js';
import { makePrivateDir, writePrivate } from '../../persistence/privateFs.js';
import { scrubSecretLike } from '../../persistence/redact.js';
import { runLabels } from '../runSelection.js';

/** The final answer kept per run. */
export const ANSWER_CAP_CHARS = 4000;

export interface ReportRun {
  number: number;
  id: string;
  label: string;
  parent: string | null;
  kind: string;
  agent: string;
  model: string;
  task: string;
  status: string;
  startedAt: string | null;
  endedAt: string | null;
  activeSecs: number;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  observed: {
    toolCalls: number;
    failedCalls: number;
    byTool: Record<string, { calls: number; failed: number }>;
    files: Array<{ path: string; change: string; added: number; removed: number; via: string }>;
    commands: Array<{ command: string; ending: string; exitCode: number | null; durationMs: number; observed: string }>;
    mcp: Array<{ server: string; tool: string; error: boolean }>;
    flags: Array<{ flag: string; reason: string }>;
  };
  approvals: Array<{ tool: string; answer: string }>;
  /** An isolated child's worktree: its branch and what became of its changes (issue #23). */
  worktree?: { branch: string; state: string; files: string[]; inherited: boolean };
  answer: string | null;
  answerCut: boolean;
  error: string | null;
  subtree: {
    runs: number;
    tokensIn: number;
    tokensOut: number;
    costUsd: number;
    toolCalls: number;
    filesChanged: number;
    added: number;
    removed: number;
    commands: number;
    failedCommands: number;
  };
}

export interface TreeReport {
  session: string;
  exportedAt: string;
  runs: ReportRun[];
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** What the ledger saw a run do, as the report writes it (`flags`: a child's, worded). */
function reportObserved(l: RunLedger | undefined, flags: ReportRun['observed']['flags']): ReportRun['observed'] {
  return {
    toolCalls: l?.toolCalls ?? 0,
    failedCalls: l?.failedCalls ?? 0,
    byTool: l?.byTool ?? {},
    files: (l?.files ?? []).map((f) => ({ path: f.path, change: f.change, added: f.added, removed: f.removed, via: f.via })),
    commands: (l?.commands ?? []).map((c) => ({
      command: c.command,
      ending: commandEnding(c),
      exitCode: c.exitCode ?? null,
      durationMs: c.durationMs,
      observed: c.observed,
    })),
    mcp: (l?.mcp ?? []).map((m) => ({ server: m.server, tool: m.tool, error: m.error })),
    flags,
  };
}

export function buildTreeReport(session: string, list: readonly Run[], now = Date.now()): TreeReport {
  const runs: Record<string, Run> = {};
  const order: string[] = [];
  for (const r of [...list].sort((a, b) => a.createdAt - b.createdAt)) {
    if (runs[r.id]) continue;
    runs[r.id] = r;
    order.push(r.id);
  }
  const lookup = { get: (id: string): Run | undefined => runs[id] };
  const labels = runLabels({ runs: lookup, runOrder: order } as never);
  const label = (id: string) =>
    runs[id].kind === 'root' ? `${runs[id].alias} (turn ${runs[id].shortId})` : (labels.get(id) ?? runs[id].shortId);
  const sums = subtreeUsage(lookup, order);
  const out: ReportRun[] = order.map((id, i) => {
    const r = runs[id];
    const o = childObserved(lookup, order, id);
    const sub = subtreeObserved(lookup, order, id);
    const u = sums.get(id);
    const l = r.observed;
    const answer = r.result ?? null;
    const end = r.endedAt ?? now;
    return {
      number: i + 1,
      id,
      label: label(id),
      parent: r.parentRunId && runs[r.parentRunId] ? label(r.parentRunId) : null,
      kind: r.kind,
      agent: r.alias,
      model: r.model,
      task: r.task,
      status: r.status,
      startedAt: iso(r.startedAt ?? r.createdAt),
      endedAt: iso(r.endedAt),
      activeSecs: Math.max(0, Math.round((end - (r.startedAt ?? r.createdAt) - r.pausedMs) / 100) / 10),
      tokensIn: r.tokensIn,
      tokensOut: r.tokensOut,
      costUsd: r.costUsd,
      observed: reportObserved(l, r.kind === 'root' ? [] : o.flags.map((f) => ({ flag: flagLabel(f), reason: flagReason(f, o.summary) }))),
      approvals: (l?.approvals ?? []).map((a) => ({ tool: a.tool, answer: a.answer })),
      ...(r.worktree
        ? {
            worktree: {
              branch: r.worktree.branch,
              state: r.worktree.state,
              files: r.worktree.files ?? [],
              inherited: r.worktree.inherited === true,
            },
          }
        : {}),
      answer: answer === null ? null : answer.slice(0, ANSWER_CAP_CHARS),
      answerCut: answer !== null && answer.length > ANSWER_CAP_CHARS,
      error: r.error ?? null,
      subtree: {
        runs: sub.runs,
        tokensIn: u?.tokensIn ?? r.tokensIn,
        tokensOut: u?.tokensOut ?? r.tokensOut,
        costUsd: u?.costUsd ?? r.costUsd,
        toolCalls: sub.toolCalls,
        filesChanged: sub.files.length,
        added: sub.added,
        removed: sub.removed,
        commands: sub.commands.length,
        failedCommands: sub.failedCommands,
      },
    };
  });
  return { session, exportedAt: new Date(now).toISOString(), runs: out };
}

const quote = (text: string) =>
  text
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');

/** The report as Markdown: one section per run, in tree order of creation. */
export function reportMarkdown(rep: TreeReport): string {
  const lines: string[] = [`# arbor session ${rep.session}: run tree`, '', `Exported ${rep.exportedAt}, ${rep.runs.length} runs.`, ''];
  for (const r of rep.runs) {
    lines.push(`## ${r.number}. ${r.label}`, '');
    lines.push(
      `- parent: ${r.parent ?? '—'}`,
      `- kind: ${r.kind}`,
      `- agent: ${r.agent}`,
      `- model: ${r.model}`,
      `- status: ${r.status}${r.error ? ` (${r.error.split('\n')[0]})` : ''}`,
      `- started: ${r.startedAt ?? '—'} · ended: ${r.endedAt ?? '—'} · active: ${r.activeSecs}s`,
      `- tokens: ${r.tokensIn} in / ${r.tokensOut} out · cost: $${r.costUsd.toFixed(4)}`,
      ...(r.worktree
        ? [
            `- worktree: ${r.worktree.branch} (${r.worktree.inherited ? 'inherited' : r.worktree.state})${r.worktree.files.length ? ` — ${r.worktree.files.join(', ')}` : ''}`,
          ]
        : []),
      `- tool calls: ${r.observed.toolCalls} (${r.observed.failedCalls} failed)` +
        (Object.keys(r.observed.byTool).length
          ? ` — ${Object.entries(r.observed.byTool)
              .map(([k, v]) => `${k} ${v.calls}${v.failed ? ` (${v.failed} failed)` : ''}`)
              .join(', ')}`
          : ''),
      `- subtree: ${r.subtree.runs} runs · ${r.subtree.tokensIn} in / ${r.subtree.tokensOut} out · $${r.subtree.costUsd.toFixed(4)} · ${r.subtree.toolCalls} tool calls · ${r.subtree.filesChanged} files +${r.subtree.added} -${r.subtree.removed} · ${r.subtree.commands} commands (${r.subtree.failedCommands} failed)`,
      '',
      '### Task',
      '',
      quote(r.task),
      '',
    );
    if (r.observed.files.length) {
      lines.push('### Files', '');
      for (const f of r.observed.files) lines.push(`- \`${f.path}\` ${f.change} +${f.added} -${f.removed} (${f.via})`);
      lines.push('');
    }
    if (r.observed.commands.length) {
      lines.push('### Commands', '');
      for (const c of r.observed.commands)
        lines.push(`- \`${c.command.replace(/`/g, "'")}\` → ${c.ending} (${c.durationMs} ms, ${c.observed})`);
      lines.push('');
    }
    if (r.observed.mcp.length) {
      lines.push('### MCP calls', '');
      for (const m of r.observed.mcp) lines.push(`- ${m.server} / ${m.tool}${m.error ? ' (error)' : ''}`);
      lines.push('');
    }
    if (r.observed.flags.length) {
      lines.push('### Flags', '');
      for (const f of r.observed.flags) lines.push(`- ⚠ ${f.flag}: ${f.reason}`);
      lines.push('');
    }
    if (r.approvals.length) {
      lines.push('### Approvals', '');
      for (const a of r.approvals) lines.push(`- ${a.tool}: ${a.answer}`);
      lines.push('');
    }
    lines.push('### Answer', '', r.answer === null ? '—' : quote(r.answer) + (r.answerCut ? '\n\n(answer cut)' : ''), '');
  }
  return lines.join('\n');
}

export type ExportFormat = 'md' | 'json';

/** `path`'s format: JSON for `.json`, else Markdown; `format` wins when given. */
export function formatFor(path: string | undefined, format?: ExportFormat): ExportFormat {
  return format ?? (path?.toLowerCase().endsWith('.json') ? 'json' : 'md');
}

export function defaultExportPath(session: string, format: ExportFormat, home = arborHome()): string {
  return join(home, 'exports', `${session}-tree.${format}`);
}

/** Writes the report (0600, secrets scrubbed); returns the path written. */
export function writeTreeReport(rep: TreeReport, opts: { path?: string; format?: ExportFormat; home?: string }): string {
  const format = formatFor(opts.path, opts.format);
  const path = opts.path ?? defaultExportPath(rep.session, format, opts.home);
  const text = format === 'json' ? JSON.stringify(rep, null, 2) + '\n' : reportMarkdown(rep);
  makePrivateDir(dirname(path));
  writePrivate(path, scrubSecretLike(text));
  // An existing file keeps its mode on write: the report is private whatever was there.
  chmodSync(path, 0o600);
  return path;
}
