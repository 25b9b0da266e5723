// Copy: the original retained entry (its result possibly already capped at 16 KiB by the
// runtime, never by the display limits) goes to the clipboard through OSC 52, which works
// over SSH, and to a file, so it is not lost where the terminal ignores OSC 52. The file is
// the runtime's to write (RuntimeApi.exportText): the UI writes no files.
import { t } from '../../i18n/index.js';
import { redactForExport } from '../../runtime/runtimeApi.js';
import type { TranscriptItem } from '../../model/transcript.js';
import { callStatusWord } from './cardLines.js';

/** Terminals and multiplexers drop larger OSC 52 payloads; the file still gets everything. */
export const OSC52_MAX_BYTES = 512 * 1024;

export function osc52(text: string): string {
  return `\u001B]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}

function iso(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? '—' : new Date(ms).toISOString();
}

/** The entry as text: a tool call's name, id, status, times, arguments and result verbatim;
 * a message's text as written. */
export function entryText(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user':
    case 'assistant':
    case 'notice':
      return item.text;
    case 'tool': {
      const head = [item.name, item.callId, callStatusWord(item), ...(item.restored ? [t('transcript:card.restored')] : [])].join(' · ');
      let args = item.rawArgs;
      if (!args) {
        try {
          args = JSON.stringify(item.args, null, 2) ?? '';
        } catch {
          args = String(item.args);
        }
      }
      return [
        head,
        `${t('transcript:copy.started')}: ${iso(item.startedAt)}`,
        `${t('transcript:copy.ended')}: ${iso(item.endedAt)}`,
        '',
        `${t('transcript:copy.arguments')}:`,
        args,
        '',
        `${t('transcript:copy.result')}:`,
        item.result ?? t('transcript:card.notRecorded'),
      ].join('\n');
    }
  }
}

export function entriesText(items: readonly TranscriptItem[]): string {
  return items.map(entryText).join('\n\n----------\n\n');
}

export interface CopyOutcome {
  clipboard: boolean;
  path?: string;
  error?: string;
  /** The flash line that says what happened and where the file went. */
  message: string;
  level: 'info' | 'warn' | 'error';
}

/** Writes the text to a new file named after `what`; returns its path, throws naming it. */
export type SaveExport = (text: string, what: string) => string;

/** Clipboard (OSC 52 written through `write`) and file (through `save`, normally
 * `RuntimeApi.exportText`); one message saying where it went. */
export function copyText(raw: string, what: string, write: (data: string) => void, save: SaveExport): CopyOutcome {
  const text = redactForExport(raw);
  const bytes = Buffer.byteLength(text, 'utf8');
  let clipboard = false;
  if (bytes <= OSC52_MAX_BYTES) {
    write(osc52(text));
    clipboard = true;
  }
  try {
    const path = save(text, what);
    const message = clipboard ? t('transcript:copy.done', { path }) : t('transcript:copy.tooLarge', { path });
    return { clipboard, path, message, level: 'info' };
  } catch (err) {
    const error = (err as Error).message;
    const message = clipboard ? t('transcript:copy.clipboardOnly', { error }) : t('transcript:copy.failed', { error });
    return { clipboard, error, message, level: clipboard ? 'warn' : 'error' };
  }
}
