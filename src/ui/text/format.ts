// Small, language-neutral formatters for numbers, durations, dates and tool arguments.
import type { ToolDisplay } from '../../model/toolDisplay.js';
import { delegateSummary } from './delegateSummary.js';

export function formatTokens(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '0';
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 2 : 1)}M`;
}

/** Small amounts keep four decimals so a cheap session does not read as free. */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd) || usd <= 0) return '$0.00';
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** "2m 05s", "1h 02m", "9s"; `compact` drops the space ("5m12s", "1h02m") for the /agents
 * rows and /subagents, where a column is narrow. */
export function formatElapsed(ms: number, { compact = false }: { compact?: boolean } = {}): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const sep = compact ? '' : ' ';
  if (h > 0) return `${h}h${sep}${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${sep}${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

/** `YYYY-MM-DD HH:MM` in local time; an unparseable date is shown as given. */
export function formatDate(value: string | number): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function firstLine(text: string | undefined): string {
  if (!text) return '';
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed) return trimmed;
  }
  return '';
}

/** Keys whose value says most about a call; shown alone when present. */
const PRIMARY_KEYS = ['command', 'cmd', 'path', 'file', 'url', 'query', 'pattern', 'task', 'prompt'];

function scalar(v: unknown): string {
  if (typeof v === 'string') return v.replace(/\s+/g, ' ').trim();
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return String(v);
  }
}

/** One line describing a tool call's arguments. Malformed arguments fall back to the raw text. */
export function summarizeArgs(args: unknown, rawArgs = ''): string {
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    const entries = Object.entries(args as Record<string, unknown>);
    if (entries.length === 0) return '';
    const primary = PRIMARY_KEYS.find((k) => typeof (args as Record<string, unknown>)[k] === 'string');
    if (primary) {
      const rest = entries.length - 1;
      const head = scalar((args as Record<string, unknown>)[primary]);
      return rest > 0 ? `${head} (+${rest})` : head;
    }
    return entries.map(([k, v]) => `${k}=${scalar(v)}`).join(' ');
  }
  if (args !== undefined && args !== null) return scalar(args);
  return rawArgs.replace(/\s+/g, ' ').trim();
}

/** Tools whose other arguments change what the call does (which agent, background, which
 * action): their cards name every argument instead of a bare "(+N)". */
const SPELLED_OUT_TOOLS = new Set(['delegate', 'spawn_subagent']);

/** The argument summary a tool card shows. */
export function toolArgsSummary(name: string, args: unknown, rawArgs = ''): string {
  if (!SPELLED_OUT_TOOLS.has(name) || !args || typeof args !== 'object' || Array.isArray(args)) return summarizeArgs(args, rawArgs);
  if (name === 'delegate') return delegateSummary(args as Record<string, unknown>);
  const entries = Object.entries(args as Record<string, unknown>);
  const prompt = entries.find(([k]) => k === 'prompt');
  const rest = entries.filter(([k]) => k !== 'prompt').map(([k, v]) => `${k}=${scalar(v)}`);
  return [...rest, ...(prompt ? [scalar(prompt[1])] : [])].join(' · ');
}

/** The one-line preview of a tool result. A task view (delegate check_result) reads as its
 * status and first line of output or error, from the result's display, not as "{": views
 * never parse the text the model reads. Other results show their first line that says
 * something (a lone bracket of pretty-printed JSON does not). */
export function resultPreview(result: string | undefined, display?: ToolDisplay): string {
  const task = display?.kind === 'delegate' && display.action === 'check_result' ? display.targets[0] : undefined;
  if (task) {
    const parts: string[] = [];
    if (task.status) parts.push(`status=${task.status}`);
    if (task.target) parts.push(`agent=${task.target}`);
    if (task.taskId) parts.push(`task_id=${task.taskId}`);
    const output = firstLine(task.answer);
    const error = firstLine(task.error);
    if (output) parts.push(`output: ${output}`);
    if (error) parts.push(`error: ${error}`);
    if (parts.length > 0) return parts.join(' · ');
  }
  if (!result) return '';
  for (const line of result.split('\n')) {
    const trimmed = line.trim();
    if (trimmed && !/^[[{]$/.test(trimmed)) return trimmed;
  }
  return firstLine(result);
}

/** Pretty JSON for prompts; anything JSON cannot show is shown as text. */
export function prettyArgs(args: unknown, rawArgs = ''): string {
  if (args === undefined) return rawArgs;
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args, null, 2) ?? rawArgs;
  } catch {
    return rawArgs || String(args);
  }
}
