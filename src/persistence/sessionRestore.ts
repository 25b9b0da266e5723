// Reads sessions back for --resume and /sessions. Damage is confined to the line it is on:
// every other event survives, and nothing restored ever claims to be still running.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelMessage } from '../providers/types.js';
import { isTerminal, type Run, type ToolCallStatus, type TranscriptItem } from '../runtime/types.js';
import { t } from '../i18n/index.js';
import { hasControls, neutralize } from '../text/untrusted.js';
import { neutralizeItem, neutralizeRunFields } from '../text/untrustedItems.js';
import {
  SESSION_FORMAT_VERSION,
  parseSessionText,
  sessionPath,
  sessionsDir,
  type SessionHeader,
} from './sessionFormat.js';

/** What the model reads for a tool call whose result never reached the session file.
 * Providers reject a history where an assistant tool call has no matching result, so a
 * session cut mid-tool would otherwise be unresumable. Protocol text: not localized. */
export const INTERRUPTED_TOOL_RESULT = 'error: arbor exited before this tool call finished; no result was recorded';

export interface RestoredSession {
  id: string;
  path: string;
  header: SessionHeader;
  items: TranscriptItem[];
  messages: ModelMessage[];
  childItems: Record<string, TranscriptItem[]>;
  runs: Run[];
  warnings: string[];
}

export interface SessionSummary {
  id: string;
  path: string;
  createdAt: string;
  agentAlias: string;
  firstUserMessage?: string;
  items: number;
}

interface SessionFile {
  id: string;
  path: string;
  mtimeMs: number;
}

/** Session files, newest first (by mtime, then by name, which sorts by creation time). */
function sessionFiles(arborHome: string): SessionFile[] {
  const dir = sessionsDir(arborHome);
  if (!existsSync(dir)) return [];
  const files: SessionFile[] = [];
  for (const name of readdirSync(dir)) {
    // A name with control characters was not written by arbor and could not be shown safely.
    if (!name.endsWith('.jsonl') || hasControls(name)) continue;
    const path = join(dir, name);
    try {
      const st = statSync(path);
      if (st.isFile()) files.push({ id: name.slice(0, -'.jsonl'.length), path, mtimeMs: st.mtimeMs });
    } catch {
      // Vanished between readdir and stat: not a session any more.
    }
  }
  return files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** Keeps the first position of each id and the last recorded version of it, so an item
 * appended when it started and again when it finished restores once, finished. */
class ById<T extends { id: string }> {
  private readonly index = new Map<string, number>();
  readonly list: T[] = [];
  put(value: T): void {
    const at = this.index.get(value.id);
    if (at === undefined) {
      this.index.set(value.id, this.list.length);
      this.list.push(value);
    } else {
      this.list[at] = value;
    }
  }
}

const SETTLED_TOOL_STATUSES = new Set<ToolCallStatus>(['ok', 'error', 'denied', 'skipped']);

/** Items come back neutralised (text/untrusted.ts) whatever the file holds: a session
 * written before arbor neutralised text, or edited since, must not replay escapes. */
function restoreItem(stored: TranscriptItem): TranscriptItem {
  const item = neutralizeItem(stored);
  if (item.kind === 'tool') {
    // A restored card is never bound to a live run; one that was in flight failed.
    const status: ToolCallStatus = SETTLED_TOOL_STATUSES.has(item.status) ? item.status : 'error';
    return { ...item, status, restored: true };
  }
  if (item.kind === 'assistant' && item.streaming) {
    const { streaming: _streaming, ...rest } = item;
    return { ...rest, interrupted: true };
  }
  return item;
}

function restoreRun(stored: Run, lastWriteMs: number): Run {
  const run = neutralizeRunFields(stored);
  if (isTerminal(run.status)) return run;
  const restored: Run = {
    ...run,
    status: 'cancelled',
    error: t('persistence:restore.interruptedRun'),
    // The file's last write is the latest moment arbor was known to be alive.
    endedAt: run.endedAt ?? lastWriteMs,
  };
  delete restored.queuePosition;
  delete restored.pausedAt;
  return restored;
}

function answerDanglingToolCalls(messages: ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const msg = messages[i];
    out.push(msg);
    if (msg.role !== 'assistant' || !msg.toolCalls?.length) continue;
    const answered = new Set<string>();
    while (i + 1 < messages.length && messages[i + 1].role === 'tool') {
      const result = messages[++i] as Extract<ModelMessage, { role: 'tool' }>;
      answered.add(result.toolCallId);
      out.push(result);
    }
    for (const call of msg.toolCalls) {
      if (answered.has(call.id)) continue;
      out.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: INTERRUPTED_TOOL_RESULT, isError: true });
    }
  }
  return out;
}

function readSessionText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(t('persistence:restore.unreadable', { file: path, error: (err as Error).message }));
  }
}

/** Restores a session (the most recent one when `id` is omitted). Throws an Error naming
 * the id and the sessions folder when there is no such session. */
export function restoreSession(arborHome: string, id?: string): RestoredSession {
  const dir = sessionsDir(arborHome);
  let file: SessionFile;
  if (id === undefined) {
    const newest = sessionFiles(arborHome)[0];
    if (!newest) throw new Error(t('persistence:session.none', { dir }));
    file = newest;
  } else {
    const path = sessionPath(arborHome, id);
    if (!existsSync(path)) throw new Error(t('persistence:session.unknown', { id, dir }));
    file = { id, path, mtimeMs: statSync(path).mtimeMs };
  }

  const { events, warnings } = parseSessionText(readSessionText(file.path), file.path);
  let header: SessionHeader | undefined;
  const items = new ById<TranscriptItem>();
  const messages: ModelMessage[] = [];
  const children = new Map<string, ById<TranscriptItem>>();
  const runs = new ById<Run>();

  for (const { event } of events) {
    switch (event.type) {
      case 'session':
        header ??= event;
        break;
      case 'item':
        items.put(restoreItem(event.item));
        break;
      case 'message':
        messages.push(event.message);
        break;
      case 'child_item': {
        let list = children.get(event.runId);
        if (!list) children.set(event.runId, (list = new ById<TranscriptItem>()));
        list.put(restoreItem(event.item));
        break;
      }
      case 'run':
        runs.put(restoreRun(event.run, file.mtimeMs));
        break;
    }
  }

  if (!header) {
    warnings.push(t('persistence:restore.missingHeader', { file: file.path }));
    header = {
      type: 'session',
      version: SESSION_FORMAT_VERSION,
      id: file.id,
      createdAt: new Date(file.mtimeMs).toISOString(),
      agentAlias: '',
      providerLabel: '',
      cwd: '',
    };
  } else if (typeof header.version === 'number' && header.version > SESSION_FORMAT_VERSION) {
    warnings.push(t('persistence:restore.newerVersion', { file: file.path, version: header.version }));
  }

  const childItems: Record<string, TranscriptItem[]> = {};
  for (const [runId, list] of children) childItems[runId] = list.list;

  return {
    id: file.id,
    path: file.path,
    header,
    items: items.list,
    messages: answerDanglingToolCalls(messages),
    childItems,
    runs: runs.list,
    warnings,
  };
}

/** The newest sessions first. Files that cannot be read are left out; damaged lines only
 * cost what was on them. */
export function listSessions(arborHome: string, limit = 20): SessionSummary[] {
  const out: SessionSummary[] = [];
  for (const file of sessionFiles(arborHome)) {
    if (out.length >= limit) break;
    let text: string;
    try {
      text = readFileSync(file.path, 'utf8');
    } catch {
      continue;
    }
    const { events } = parseSessionText(text, file.path);
    let header: SessionHeader | undefined;
    let firstUserMessage: string | undefined;
    const itemIds = new Set<string>();
    for (const { event } of events) {
      if (event.type === 'session') header ??= event;
      else if (event.type === 'item') {
        itemIds.add(event.item.id);
        if (firstUserMessage === undefined && event.item.kind === 'user' && typeof event.item.text === 'string') {
          firstUserMessage = neutralize(event.item.text);
        }
      }
    }
    const summary: SessionSummary = {
      id: file.id,
      path: file.path,
      createdAt: header?.createdAt ?? new Date(file.mtimeMs).toISOString(),
      agentAlias: typeof header?.agentAlias === 'string' ? neutralize(header.agentAlias) : '',
      items: itemIds.size,
    };
    if (firstUserMessage !== undefined) summary.firstUserMessage = firstUserMessage;
    out.push(summary);
  }
  return out;
}
