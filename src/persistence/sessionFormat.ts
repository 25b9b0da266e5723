// The on-disk shape of a session: one JSON event per line in <arborHome>/sessions/<id>.jsonl.
// Shared by the writer (sessionLog) and the readers (sessionRestore, listSessions).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ModelMessage } from '../model/messages.js';
import type { Run, RunStatus } from '../model/run.js';
import type { TranscriptItem } from '../model/transcript.js';
import { t } from '../i18n/index.js';

export const SESSION_FORMAT_VERSION = 1;

export interface SessionMeta {
  agentAlias: string;
  providerLabel: string;
  cwd: string;
  /** A `-p` run: listed after the interactive sessions and marked as headless. */
  headless?: boolean;
}

/** Session totals so far (cumulative); the last one recorded is the session's. */
export interface SessionTotalsEvent {
  type: 'totals';
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}

/** The root's model switched (/model, --model): a configured provider, and another model
 * name on it when there was one. The last one recorded is the session's. */
export interface SessionModelEvent {
  type: 'model';
  provider: string;
  model?: string;
}

export interface SessionHeader extends SessionMeta {
  type: 'session';
  version: number;
  id: string;
  /** ISO 8601. */
  createdAt: string;
}

export type SessionEvent =
  | SessionHeader
  | { type: 'item'; item: TranscriptItem }
  | { type: 'message'; message: ModelMessage }
  | { type: 'child_item'; runId: string; item: TranscriptItem }
  | { type: 'run'; run: Run }
  | SessionTotalsEvent
  | SessionModelEvent;

export function sessionsDir(arborHome: string): string {
  return join(arborHome, 'sessions');
}

// Ids become file names: letters, digits, '-' and '_' only, so none can leave the folder.
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isValidSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

export function sessionPath(arborHome: string, id: string): string {
  if (!isValidSessionId(id)) {
    throw new Error(t('persistence:session.badId', { id, dir: sessionsDir(arborHome) }));
  }
  return join(sessionsDir(arborHome), `${id}.jsonl`);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `YYYYMMDD-HHMMSS-<6 hex>` in UTC, so names sort by creation time in any time zone. */
export function newSessionId(date = new Date()): string {
  const day = `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
  const time = `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`;
  return `${day}-${time}-${randomBytes(3).toString('hex')}`;
}

/** JSON for one event; never throws (circular or bigint tool arguments are flattened). */
export function serializeEvent(event: SessionEvent): string {
  try {
    return JSON.stringify(event);
  } catch {
    const seen = new WeakSet<object>();
    return JSON.stringify(event, (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'object' && value !== null) {
        if (seen.has(value)) return '[circular]';
        seen.add(value);
      }
      return value;
    });
  }
}

// ---- validation of what comes back from disk ----

const ITEM_KINDS = new Set(['user', 'assistant', 'tool', 'notice']);
const MESSAGE_ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const RUN_STATUSES = new Set<RunStatus>([
  'queued',
  'running',
  'pausing',
  'paused',
  'awaiting_approval',
  'completed',
  'failed',
  'killed',
  'timed_out',
  'cancelled',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isItem(v: unknown): v is TranscriptItem {
  return isObject(v) && typeof v.id === 'string' && typeof v.kind === 'string' && ITEM_KINDS.has(v.kind);
}

function isMessage(v: unknown): v is ModelMessage {
  if (!isObject(v) || typeof v.role !== 'string' || !MESSAGE_ROLES.has(v.role)) return false;
  if (typeof v.content !== 'string') return false;
  return v.role !== 'tool' || typeof v.toolCallId === 'string';
}

function isRun(v: unknown): v is Run {
  return isObject(v) && typeof v.id === 'string' && typeof v.status === 'string' && RUN_STATUSES.has(v.status as RunStatus);
}

/** A header arbor can trust: without one a file is not a session to list or append to. */
function isHeader(v: Record<string, unknown>): boolean {
  return typeof v.id === 'string' && typeof v.createdAt === 'string' && !Number.isNaN(Date.parse(v.createdAt));
}

/** The event on a line, or undefined when the line is not one we understand. */
export function toEvent(value: unknown): SessionEvent | undefined {
  if (!isObject(value)) return undefined;
  switch (value.type) {
    case 'session':
      return isHeader(value) ? (value as unknown as SessionHeader) : undefined;
    case 'item':
      return isItem(value.item) ? (value as unknown as SessionEvent) : undefined;
    case 'message':
      return isMessage(value.message) ? (value as unknown as SessionEvent) : undefined;
    case 'child_item':
      return typeof value.runId === 'string' && isItem(value.item) ? (value as unknown as SessionEvent) : undefined;
    case 'run':
      return isRun(value.run) ? (value as unknown as SessionEvent) : undefined;
    case 'model':
      return typeof value.provider === 'string' && value.provider !== '' && (value.model === undefined || typeof value.model === 'string')
        ? (value as unknown as SessionEvent)
        : undefined;
    case 'totals':
      return [value.tokensIn, value.tokensOut, value.costUsd].every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)
        ? (value as unknown as SessionEvent)
        : undefined;
    default:
      return undefined;
  }
}

export interface ParsedLine {
  /** 1-based line number in the file. */
  line: number;
  event: SessionEvent;
}

/** Splits a session file into events. A line that is not valid JSON (a crash mid-write,
 * a stray edit) or not a known event is reported with its line number and skipped; the
 * lines around it are unaffected. */
export function parseSessionText(text: string, file: string): { events: ParsedLine[]; warnings: string[] } {
  const events: ParsedLine[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (raw === '') continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      warnings.push(t('persistence:restore.badJson', { file, line }));
      continue;
    }
    const event = toEvent(value);
    if (!event) {
      warnings.push(t('persistence:restore.badEvent', { file, line }));
      continue;
    }
    events.push({ line, event });
  }
  return { events, warnings };
}
