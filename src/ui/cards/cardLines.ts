// The lines of a spawn_subagent / delegate card. Collapsed: a heading (status glyph, tool,
// targets, the task's first line) and one status line. Expanded: Task, Input, Response,
// Details. Live state comes only from runs bound through parentToolCallId; without one, the
// card states what the call recorded and claims nothing about a child.
import { t } from '../../i18n/index.js';
import { runName, type Run } from '../../model/run.js';
import type { ToolTranscriptItem, TranscriptItem } from '../../model/transcript.js';
import { firstLine, formatCost, formatElapsed, formatTokens, summarizeArgs } from '../text/format.js';
import { subtreeText } from '../text/usageText.js';
import { displayWidth } from '../text/width.js';
import { spinnerFrame, TOOL_COLORS, TOOL_GLYPHS } from '../theme.js';
import { limitNote, limitText } from './limits.js';
import { row, wrapBlock } from './lines.js';
import { fitLine, type Line, type Seg } from '../text/segments.js';
import { currentTool, isAlive, runStatusText, type CallUsage } from './live.js';
import { activeMs, runErrorText, STATUS_COLORS } from '../runDisplay.js';
import type { CardModel, ResponseBlock } from './model.js';
import { flagSegs, observedSection } from './observedLines.js';

export interface CardView {
  item: ToolTranscriptItem;
  model: CardModel;
  /** Runs bound to this call (always empty for restored items). */
  runs: readonly Run[];
  width: number;
  frame: number;
  now: number;
  /** A child's own transcript, for its tool events (expanded cards). */
  childItems?: (runId: string) => readonly TranscriptItem[] | undefined;
  /** What the call's children spent with everything under them (absent: not known). */
  usage?: CallUsage;
}

const SEP: Seg = { text: ' · ', dim: true };

/** The call's recorded status; a restored call that never finished is not "running". */
export function callStatusWord(item: ToolTranscriptItem): string {
  if (item.restored && (item.status === 'running' || item.status === 'pending_approval')) return t('transcript:toolStatus.unfinished');
  return t(`transcript:toolStatus.${item.status}`);
}

export function formatClock(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function glyph(v: CardView): Seg {
  const { item, runs } = v;
  if (item.restored) {
    // Recorded failures read as failures; a recorded answer is marked as restored, not as a
    // success this process saw.
    if (item.status === 'ok') return { text: '↺', color: 'gray' };
    if (item.status === 'running' || item.status === 'pending_approval') return { text: '◌', color: 'gray' };
    return { text: TOOL_GLYPHS[item.status], color: TOOL_COLORS[item.status] };
  }
  const alive = runs.filter(isAlive);
  if (alive.length > 0) {
    if (alive.some((r) => r.status === 'running' || r.status === 'pausing')) return { text: spinnerFrame(v.frame), color: 'cyan' };
    if (alive.some((r) => r.status === 'awaiting_approval')) return { text: '?', color: 'yellow' };
    if (alive.some((r) => r.status === 'paused')) return { text: '‖', color: 'yellow' };
    return { text: '◌', color: 'gray' };
  }
  if (item.status === 'running') return { text: spinnerFrame(v.frame), color: 'cyan' };
  if (item.status !== 'ok') return { text: TOOL_GLYPHS[item.status], color: TOOL_COLORS[item.status] };
  const completed = runs.filter((r) => r.status === 'completed').length;
  if (runs.length > 0 && completed === runs.length) return { text: '✓', color: 'green' };
  if (completed > 0) return { text: '!', color: 'yellow' };
  // The call returned, but no run of this process says a child succeeded.
  return { text: '•', color: 'gray' };
}

export function headingLine(v: CardView): Line {
  const { model } = v;
  const targets = model.tool === 'delegate' ? { text: ` → ${model.targets.join(', ')}`, color: 'cyan' } : undefined;
  return row(v.width, glyph(v), { text: ' ' }, { text: v.item.name, bold: true }, targets, SEP, { text: firstLine(model.task) });
}

/** Live metrics of one run: its name (researcher#3, the number /subagents takes), status,
 * active time, iterations, current tool, tools done, tokens. `compact` (several children on
 * one row): name, status, time and current tool. */
function runMetrics(run: Run, now: number, compact: boolean): Seg[] {
  const segs: Seg[] = [];
  if (compact || run.number !== undefined) segs.push({ text: `${runName(run)} `, bold: true });
  segs.push({ text: runStatusText(run), color: STATUS_COLORS[run.status] });
  if (run.status !== 'queued') segs.push({ text: ' ' }, { text: formatElapsed(activeMs(run, now)) });
  if (!isAlive(run)) return segs;
  const tool = currentTool(run);
  if (compact) {
    if (tool) segs.push({ text: ` ▸ ${tool}`, color: 'cyan' });
    return segs;
  }
  if (run.iterations > 0) segs.push(SEP, { text: t('transcript:live.iterations', { count: run.iterations }), dim: true });
  if (tool) segs.push(SEP, { text: `▸ ${tool}`, color: 'cyan' });
  if (run.toolsCompleted > 0) segs.push(SEP, { text: t('transcript:live.tools', { count: run.toolsCompleted }), dim: true });
  const tokens = run.tokensIn + run.tokensOut;
  if (tokens > 0) segs.push(SEP, { text: t('transcript:live.tokens', { n: formatTokens(tokens) }), dim: true });
  if (run.costUsd > 0) segs.push(SEP, { text: formatCost(run.costUsd), dim: true });
  return segs;
}

/** The call's children with everything under them, when some of them have children. */
function subtreeSegs(v: CardView): Seg[] {
  const u = v.usage;
  if (!u || u.descendants === 0) return [];
  return [SEP, { text: subtreeText(u), color: 'magenta' }];
}

function blockSummary(b: ResponseBlock): string {
  if (b.text === undefined) return t('transcript:card.notRecorded');
  return firstLine(b.text) || t('transcript:card.notRecorded');
}

function recordedSummary(v: CardView): Seg[] {
  const { model, item } = v;
  if (!model.settled) {
    return [
      { text: item.status === 'pending_approval' ? t('transcript:card.awaitingApproval') : t('transcript:card.inProgress'), dim: true },
    ];
  }
  if (model.parallel && model.blocks.some((b) => b.target !== undefined)) {
    const parts = model.blocks.map((b) =>
      b.text === undefined
        ? t('transcript:card.blockNotRecorded', { target: b.target })
        : `${b.target} (success=${b.reportedSuccess === true})`,
    );
    return [{ text: parts.join(' · '), dim: true }];
  }
  const b = model.blocks[0] ?? {};
  const failed = item.status !== 'ok';
  return [{ text: outcomePrefix(item) + blockSummary(b), color: failed ? 'red' : undefined, dim: !failed }];
}

function outcomePrefix(item: ToolTranscriptItem): string {
  if (item.status === 'denied') return `${t('transcript:card.denied')}: `;
  return item.status === 'skipped' ? `${t('transcript:card.skipped')}: ` : '';
}

export function statusLine(v: CardView): Line {
  const lead: Seg = { text: '  └ ', dim: true };
  const flags = flagSegs(v.item);
  if (v.item.restored)
    return row(v.width, lead, { text: t('transcript:card.restored'), color: 'gray' }, ...flags, SEP, ...recordedSummary(v));
  const { runs } = v;
  if (runs.length === 1) {
    const run = runs[0];
    if (isAlive(run) || !v.model.settled) return row(v.width, lead, ...runMetrics(run, v.now, false), ...subtreeSegs(v));
    return row(v.width, lead, ...runMetrics(run, v.now, false), ...flags, ...subtreeSegs(v), SEP, ...recordedSummary(v));
  }
  if (runs.length > 1) {
    const segs: Seg[] = [lead];
    runs.forEach((run, i) => {
      if (i > 0) segs.push({ text: ' │ ', dim: true });
      segs.push(...runMetrics(run, v.now, true));
    });
    const u = v.usage;
    if (u && u.tokensIn + u.tokensOut > 0) segs.push({ text: ' │ ', dim: true }, { text: subtreeText(u), color: 'magenta' });
    return row(v.width, ...segs, ...flags);
  }
  return row(v.width, lead, ...flags, ...recordedSummary(v));
}

/** Collapsed: two rows, so the live region can budget it without a store read; a call
 * refused before any child ran (a policy's "set [risk_profiles.default]…" remedy) wraps
 * its reason instead, since the end of it is what the user needs. */
export function collapsedLines(v: CardView): Line[] {
  const refusal = v.runs.length === 0 ? refusalLines(v.item, v.model, v.width) : undefined;
  return [headingLine(v), ...(refusal ?? [statusLine(v)])];
}

export const COLLAPSED_ROWS = 2;

/** The wrapped reason of a settled call that failed or was denied, when it does not fit one
 * row; undefined otherwise (the status row shows it). From the call's display, as the row. */
export function refusalLines(item: ToolTranscriptItem, model: CardModel, width: number): Line[] | undefined {
  if (item.restored || !model.settled || item.status === 'ok' || model.parallel) return undefined;
  const whole =
    (model.blocks[0]?.text ?? '')
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const reason = `${outcomePrefix(item)}${whole}`;
  const lead = '  └ ';
  if (!whole || displayWidth(lead) + displayWidth(reason) <= width) return undefined;
  const rows = wrapBlock(reason, width, lead.length, { color: 'red' });
  rows[0] = [{ text: lead, dim: true }, ...rows[0].slice(1)];
  return rows.map((l) => fitLine(l, width));
}

/** Rows a collapsed card takes, for the live region's budget. */
export function collapsedRows(item: ToolTranscriptItem, model: CardModel, width: number): number {
  return 1 + (refusalLines(item, model, width)?.length ?? 1);
}

// ---- expanded ----

function heading(text: string, width: number, indent = 2): Line {
  return row(width, { text: ' '.repeat(indent) }, { text, bold: true });
}

/** A field's text under the display limits, with the note pointing to Copy when cut. */
function field(text: string, width: number, indent: number, style: { color?: string; dim?: boolean } = {}): Line[] {
  const l = limitText(text);
  const lines = wrapBlock(l.text, width, indent, style);
  if (l.limited) lines.push(...wrapBlock(limitNote(l), width, indent, { color: 'yellow' }));
  return lines;
}

function inputValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function responseLines(v: CardView, b: ResponseBlock, indent: number): Line[] {
  if (!v.model.settled) return wrapBlock(t('transcript:card.waiting'), v.width, indent, { dim: true });
  if (b.text === undefined || b.text === '') return wrapBlock(t('transcript:card.notRecorded'), v.width, indent, { color: 'yellow' });
  return field(b.text, v.width, indent, b.error ? { color: 'red' } : {});
}

function childLines(v: CardView, run: Run): Line[] {
  const w = v.width;
  const out: Line[] = [
    row(w, { text: '    ' }, { text: t('transcript:details.child', { alias: runName(run), id: run.shortId }), bold: true }, SEP, {
      text: runStatusText(run),
      color: STATUS_COLORS[run.status],
    }),
  ];
  const times: Seg[] = [
    { text: '      ' },
    { text: t('transcript:details.started', { at: formatClock(run.startedAt ?? run.createdAt) }), dim: true },
  ];
  if (run.endedAt !== undefined) times.push(SEP, { text: t('transcript:details.ended', { at: formatClock(run.endedAt) }), dim: true });
  times.push(SEP, { text: t('transcript:details.active', { time: formatElapsed(activeMs(run, v.now)) }), dim: true });
  out.push(row(w, ...times));
  out.push(
    row(
      w,
      { text: '      ' },
      { text: t('transcript:live.iterations', { count: run.iterations }), dim: true },
      SEP,
      { text: t('transcript:live.tools', { count: run.toolsCompleted }), dim: true },
      SEP,
      { text: t('transcript:details.tokens', { in: formatTokens(run.tokensIn), out: formatTokens(run.tokensOut) }), dim: true },
      run.model ? SEP : undefined,
      run.model ? { text: run.model, dim: true } : undefined,
      SEP,
      { text: formatCost(run.costUsd), dim: true },
    ),
  );
  const tool = currentTool(run);
  if (tool && isAlive(run)) out.push(row(w, { text: '      ' }, { text: t('transcript:details.runningTool', { tool }), color: 'cyan' }));
  const error = runErrorText(run);
  if (error) out.push(...wrapBlock(error, w, 6, { color: 'red' }));
  const tools = (v.childItems?.(run.id) ?? []).filter((i): i is ToolTranscriptItem => i.kind === 'tool');
  if (tools.length > 0) {
    out.push(row(w, { text: '      ' }, { text: t('transcript:details.toolEvents'), dim: true }));
    const shown = tools.slice(-100);
    if (shown.length < tools.length)
      out.push(
        row(w, { text: '        ' }, { text: t('transcript:details.earlierEvents', { count: tools.length - shown.length }), dim: true }),
      );
    for (const ti of shown) {
      const g = ti.status === 'running' ? spinnerFrame(v.frame) : TOOL_GLYPHS[ti.status];
      out.push(
        row(
          w,
          { text: '        ' },
          { text: `${g} `, color: TOOL_COLORS[ti.status] },
          { text: ti.name },
          { text: ` ${summarizeArgs(ti.args, ti.rawArgs)}`, dim: true },
        ),
      );
    }
  }
  return out;
}

function detailLines(v: CardView): Line[] {
  const { item, model, width: w } = v;
  const out: Line[] = [heading(t('transcript:section.details'), w)];
  const call: Seg[] = [
    { text: '    ' },
    { text: t('transcript:details.call', { id: item.callId, status: callStatusWord(item) }), dim: true },
  ];
  call.push(SEP, { text: `${formatClock(item.startedAt)} → ${formatClock(item.endedAt)}`, dim: true });
  out.push(row(w, ...call));
  for (const b of model.blocks) {
    if (!b.attribution) continue;
    const label = b.agentic ? t('transcript:details.agentic', { attribution: b.attribution }) : b.attribution;
    out.push(row(w, { text: '    ' }, { text: t('transcript:details.model', { target: b.target ?? '', label }) }));
  }
  if (model.capped) out.push(...wrapBlock(t('transcript:details.capped'), w, 4, { color: 'yellow' }));
  if (item.restored) out.push(...wrapBlock(t('transcript:details.restored'), w, 4, { color: 'gray' }));
  else if (v.runs.length === 0 && model.settled) out.push(...wrapBlock(t('transcript:details.noChild'), w, 4, { dim: true }));
  for (const run of v.runs) out.push(...childLines(v, run));
  return out;
}

export function expandedLines(v: CardView): Line[] {
  const { model, width: w } = v;
  const out: Line[] = collapsedLines(v);
  out.push(heading(t('transcript:section.task'), w), ...field(model.task, w, 4));
  if (model.extra.length > 0) {
    out.push(heading(t('transcript:section.input'), w));
    for (const [k, value] of model.extra) {
      const text = inputValue(value);
      if (!text.includes('\n') && k.length + text.length + 6 <= w)
        out.push(row(w, { text: '    ' }, { text: `${k}: `, dim: true }, { text }));
      else out.push(row(w, { text: '    ' }, { text: `${k}:`, dim: true }), ...field(text, w, 6));
    }
  }
  out.push(heading(t('transcript:section.response'), w));
  if (model.blocks.length === 0) out.push(...responseLines(v, {}, 4));
  for (const b of model.blocks) {
    if (model.parallel && b.target !== undefined) {
      const flag = b.reportedSuccess === undefined ? '' : ` (success=${b.reportedSuccess})`;
      out.push(row(w, { text: '    ── ', dim: true }, { text: b.target, bold: true, color: 'cyan' }, { text: flag, dim: true }));
      out.push(...responseLines(v, b, 6));
    } else {
      out.push(...responseLines(v, b, 4));
    }
  }
  out.push(...observedSection(v.item, w));
  out.push(...detailLines(v));
  return out.map((l) => fitLine(l, w));
}
