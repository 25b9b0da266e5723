// Reads sessions back for --resume and /sessions. Damage is confined to the line it is on:
// every other event survives, and nothing restored ever claims to be still running.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelMessage } from '../model/messages.js';
import type { SessionSummary } from '../model/session.js';
import { isTerminal, type Run } from '../model/run.js';
import type { ToolCallStatus, TranscriptItem } from '../model/transcript.js';
import { t } from '../i18n/index.js';
import { hasControls, neutralize } from '../text/untrusted.js';
import { neutralizeItem, neutralizeRunFields } from '../text/untrustedItems.js';
import { restoreDisplay } from './legacyDisplay.js';
import { restoreReasoning } from './reasoningRestore.js';
import { SESSION_FORMAT_VERSION, parseSessionText, sessionPath, sessionsDir, type SessionHeader } from './sessionFormat.js';

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
  /** False when the header is missing or damaged: never append to such a file. */
  valid: boolean;
  /** The last recorded totals (tokens, cost), so a resumed session keeps counting. */
  totals: { tokensIn: number; tokensOut: number; costUsd: number };
  /** arbor exited in the middle of the last turn (no answer recorded after it began). */
  lastTurnCutOff: boolean;
  /** Ids of background tasks this session started (from the delegate results). */
  backgroundTaskIds: string[];
  /** The root's model as last switched in this session (/model, --model); absent: never
   * switched. Names from the file: check them against the config before use. */
  model?: { provider: string; model?: string };
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
  // The display is checked (or, for a file from before displays, read from the text) first,
  // so what is neutralised is what views will read.
  const item = neutralizeItem(stored.kind === 'tool' ? restoreDisplay(stored) : stored);
  if (item.kind === 'tool') {
    // A restored card is never bound to a live run; one that was in flight failed.
    const status: ToolCallStatus = SETTLED_TOOL_STATUSES.has(item.status) ? item.status : 'error';
    return { ...item, status, restored: true };
  }
  if (item.kind === 'assistant' && item.streaming) {
    const { streaming: _streaming, thinking: _thinking, ...rest } = item;
    return { ...rest, interrupted: true };
  }
  return item;
}

function restoreRun(stored: Run, lastWriteMs: number): Run {
  const run = neutralizeRunFields(stored);
  // A number that is not a positive integer is not one arbor wrote: the run goes unnumbered.
  if (run.number !== undefined && !(Number.isSafeInteger(run.number) && run.number > 0)) delete run.number;
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
    throw new Error(t('persistence:restore.unreadable', { file: path, error: (err as Error).message }), { cause: err });
  }
}

/** The session file for an id or a unique prefix of one. */
function fileForId(arborHome: string, id: string): SessionFile {
  const dir = sessionsDir(arborHome);
  const path = sessionPath(arborHome, id);
  if (existsSync(path)) return { id, path, mtimeMs: statSync(path).mtimeMs };
  const matches = sessionFiles(arborHome).filter((f) => f.id.startsWith(id));
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new Error(
      t('persistence:session.ambiguous', {
        id,
        dir,
        matches: matches
          .slice(0, 5)
          .map((f) => f.id)
          .join(', '),
      }),
    );
  }
  throw new Error(t('persistence:session.unknown', { id, dir }));
}

/** The session file's events folded into what they restore: the first header, items and
 * child items by id (a later write of an item replaces it), messages in order, run
 * snapshots, the last totals and the last model switch. */
function foldEvents(events: ReturnType<typeof parseSessionText>['events'], mtimeMs: number) {
  let header: SessionHeader | undefined;
  const items = new ById<TranscriptItem>();
  const messages: ModelMessage[] = [];
  const children = new Map<string, ById<TranscriptItem>>();
  const runs = new ById<Run>();
  let totals = { tokensIn: 0, tokensOut: 0, costUsd: 0 };
  let model: RestoredSession['model'];
  for (const { event } of events) {
    switch (event.type) {
      case 'session':
        header ??= event;
        break;
      case 'item':
        items.put(restoreItem(event.item));
        break;
      case 'totals':
        totals = { tokensIn: event.tokensIn, tokensOut: event.tokensOut, costUsd: event.costUsd };
        break;
      case 'message':
        messages.push(restoreReasoning(event.message));
        break;
      case 'child_item': {
        let list = children.get(event.runId);
        if (!list) children.set(event.runId, (list = new ById<TranscriptItem>()));
        list.put(restoreItem(event.item));
        break;
      }
      case 'run':
        runs.put(restoreRun(event.run, mtimeMs));
        break;
      case 'model':
        model = { provider: event.provider, ...(event.model !== undefined ? { model: event.model } : {}) };
        break;
    }
  }
  return { header, items, messages, children, runs, totals, model };
}

/** The header to restore with: a file without one gets a stand-in (and a warning), one
 * written by a newer arbor a warning. */
function checkedHeader(header: SessionHeader | undefined, file: SessionFile, warnings: string[]): SessionHeader {
  if (!header) {
    warnings.push(t('persistence:restore.missingHeader', { file: file.path }));
    return {
      type: 'session',
      version: SESSION_FORMAT_VERSION,
      id: file.id,
      createdAt: new Date(file.mtimeMs).toISOString(),
      agentAlias: '',
      providerLabel: '',
      cwd: '',
    };
  }
  if (typeof header.version === 'number' && header.version > SESSION_FORMAT_VERSION) {
    warnings.push(t('persistence:restore.newerVersion', { file: file.path, version: header.version }));
  }
  return header;
}

/** Restores a session: `id` may be a full id or a unique prefix; without one, the newest
 * session with a valid header. Throws an Error naming the id and the sessions folder when
 * there is no such session. */
export function restoreSession(arborHome: string, id?: string): RestoredSession {
  const dir = sessionsDir(arborHome);
  let file: SessionFile;
  if (id === undefined) {
    const newest = listSessions(arborHome, 1)[0];
    if (!newest) throw new Error(t('persistence:session.none', { dir }));
    file = { id: newest.id, path: newest.path, mtimeMs: Date.parse(newest.updatedAt) };
  } else {
    file = fileForId(arborHome, id);
  }

  const { events, warnings } = parseSessionText(readSessionText(file.path), file.path);
  const { header: recorded, items, messages, children, runs, totals, model } = foldEvents(events, file.mtimeMs);
  const valid = recorded !== undefined;
  const header = checkedHeader(recorded, file, warnings);

  const childItems: Record<string, TranscriptItem[]> = {};
  for (const [runId, list] of children) childItems[runId] = list.list;

  const repaired = answerDanglingToolCalls(messages);
  return {
    id: file.id,
    path: file.path,
    header,
    items: items.list,
    messages: repaired,
    childItems,
    runs: runs.list,
    warnings,
    valid,
    totals,
    lastTurnCutOff: lastTurnCutOff(items.list, repaired.length !== messages.length),
    backgroundTaskIds: backgroundTaskIds(items.list),
    ...(model ? { model } : {}),
  };
}

/** A turn that ended (answer, error, interruption) leaves an answer or a notice last; a
 * turn cut off by arbor's exit leaves the user's message, a half-streamed reply or a tool
 * card last, or tool calls without results. */
function lastTurnCutOff(items: TranscriptItem[], danglingCalls: boolean): boolean {
  if (danglingCalls) return true;
  const last = items[items.length - 1];
  if (!last) return false;
  if (last.kind === 'user' || last.kind === 'tool') return true;
  return last.kind === 'assistant' && last.interrupted === true;
}

const TASK_ID_LINE = /^task_id: ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/gim;

function backgroundTaskIds(items: TranscriptItem[]): string[] {
  const ids = new Set<string>();
  for (const item of items) {
    if (item.kind !== 'tool') continue;
    if (item.display?.kind === 'delegate' && item.display.background) {
      for (const target of item.display.targets) if (target.taskId) ids.add(target.taskId.toLowerCase());
      continue;
    }
    // A file from before displays: the launch's text names the id.
    if (typeof item.result !== 'string' || !item.result.includes('Background task started')) continue;
    for (const m of item.result.matchAll(TASK_ID_LINE)) ids.add(m[1].toLowerCase());
  }
  return [...ids];
}

export interface ListOptions {
  /** Most sessions returned (default 20). */
  limit?: number;
  /** Only sessions started in this working directory. */
  cwd?: string;
}

/** Valid sessions (a readable header), interactive ones first, each group newest first;
 * headless (`-p`) runs come last. Files without a valid header are left out: they are not
 * sessions to resume or append to. Damaged lines only cost what was on them. */
export function listSessions(arborHome: string, opts: ListOptions | number = {}): SessionSummary[] {
  const { limit = 20, cwd } = typeof opts === 'number' ? { limit: opts } : opts;
  const interactive: SessionSummary[] = [];
  const headless: SessionSummary[] = [];
  for (const file of sessionFiles(arborHome)) {
    if (interactive.length >= limit) break;
    const summary = summarize(file);
    if (!summary || (cwd !== undefined && summary.cwd !== cwd)) continue;
    (summary.headless ? headless : interactive).push(summary);
  }
  return [...interactive, ...headless].slice(0, limit);
}

function summarize(file: SessionFile): SessionSummary | undefined {
  let text: string;
  try {
    text = readFileSync(file.path, 'utf8');
  } catch {
    return undefined;
  }
  const { events } = parseSessionText(text, file.path);
  let header: SessionHeader | undefined;
  let firstUserMessage: string | undefined;
  const itemIds = new Set<string>();
  const userIds = new Set<string>();
  let tokens = 0;
  let costUsd = 0;
  for (const { event } of events) {
    if (event.type === 'session') header ??= event;
    else if (event.type === 'totals') {
      tokens = event.tokensIn + event.tokensOut;
      costUsd = event.costUsd;
    } else if (event.type === 'item') {
      itemIds.add(event.item.id);
      if (event.item.kind === 'user') {
        userIds.add(event.item.id);
        if (firstUserMessage === undefined && typeof event.item.text === 'string') firstUserMessage = neutralize(event.item.text);
      }
    }
  }
  if (!header) return undefined;
  const summary: SessionSummary = {
    id: file.id,
    path: file.path,
    createdAt: header.createdAt,
    updatedAt: new Date(file.mtimeMs).toISOString(),
    agentAlias: typeof header.agentAlias === 'string' ? neutralize(header.agentAlias) : '',
    cwd: typeof header.cwd === 'string' ? header.cwd : '',
    headless: header.headless === true,
    items: itemIds.size,
    turns: userIds.size,
    tokens,
    costUsd,
  };
  if (firstUserMessage !== undefined) summary.firstUserMessage = firstUserMessage;
  return summary;
}

/** The newest valid session started in `cwd` (`arbor --continue`): an interactive one if
 * there is any, else the newest headless run. */
export function newestSessionIn(arborHome: string, cwd: string): SessionSummary | undefined {
  return listSessions(arborHome, { cwd, limit: 1 })[0];
}
