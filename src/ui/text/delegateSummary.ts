// One header form for every delegate call, from its structured arguments (never from the
// model's text): "→ researcher · background · <task>", "check_result · <task id>",
// "await_sessions · <id>, <id>". Before, a background launch and the task actions fell to
// the generic "agent=researcher · background=true" / "action=check_result · task_id=…".
import { t } from '../../i18n/index.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.replace(/\s+/g, ' ').trim() : undefined);

function value(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return String(v);
  }
}

/** The keys each form already says; any other argument is shown as key=value. */
const SAID = new Set(['action', 'agent', 'parallel', 'background', 'prompt', 'context', 'task_id', 'task_ids']);

export function delegateSummary(args: Record<string, unknown>): string {
  const action = str(args.action) ?? 'delegate';
  const parts: string[] = [];
  if (action === 'delegate') {
    const targets = Array.isArray(args.parallel) ? args.parallel.map(str).filter(Boolean) : [str(args.agent)].filter(Boolean);
    parts.push(`→ ${targets.length ? targets.join(', ') : '?'}`);
    if (args.background === true) parts.push(t('agents:kind.background'));
  } else {
    parts.push(action);
    const id = str(args.task_id);
    if (id) parts.push(id);
    if (Array.isArray(args.task_ids)) parts.push(args.task_ids.map(value).join(', '));
  }
  for (const [k, v] of Object.entries(args)) if (!SAID.has(k)) parts.push(`${k}=${value(v)}`);
  const prompt = str(args.prompt);
  if (prompt) parts.push(prompt);
  return parts.join(' · ');
}
