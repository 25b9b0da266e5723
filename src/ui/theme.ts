// Glyphs and colours shared by the chat screen, so cards and panes added later match.
import type { ToolCallStatus } from '../model/transcript.js';

export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Spinner cadence: smooth enough to read as alive, slow enough to cost nothing. */
export const SPINNER_INTERVAL_MS = 120;

export function spinnerFrame(frame: number): string {
  return SPINNER_FRAMES[((frame % SPINNER_FRAMES.length) + SPINNER_FRAMES.length) % SPINNER_FRAMES.length];
}

export const TOOL_GLYPHS: Record<Exclude<ToolCallStatus, 'running'>, string> = {
  pending_approval: '◌',
  ok: '✓',
  error: '✗',
  denied: '⊘',
  skipped: '–',
};

export const TOOL_COLORS: Record<ToolCallStatus, string> = {
  pending_approval: 'yellow',
  running: 'cyan',
  ok: 'green',
  error: 'red',
  denied: 'yellow',
  skipped: 'gray',
};

export type NoticeLevel = 'info' | 'warn' | 'error';

export const NOTICE_STYLE: Record<NoticeLevel, { glyph: string; color: string }> = {
  info: { glyph: '·', color: 'gray' },
  warn: { glyph: '⚠', color: 'yellow' },
  error: { glyph: '✗', color: 'red' },
};

export const USER_PROMPT = '› ';
export const INPUT_PROMPT = '› ';
/** Assistant text is indented this much under the user's line. */
export const ASSISTANT_INDENT = 2;
