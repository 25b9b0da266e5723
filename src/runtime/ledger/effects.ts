// Reading effects out of what a tool returned: a file change from any result whose display
// is a diff (write_file, edit_file, whatever comes next), a command's ending from the shell
// tool's result, an MCP call from its tool name. Never from the model's text.
import { isAbsolute, relative } from 'node:path';
import type { CommandEffect, FileEffect } from '../../model/ledger.js';
import { mcpServerOf, MCP_PREFIX } from '../../mcp/names.js';
import type { ToolResult } from '../../tools/types.js';
import { countLines, hunksText, type Hunk } from './diffText.js';

/** The part of a tool result's structured display the ledger reads (model/toolDisplay.ts). */
interface DiffLike {
  kind: 'diff';
  path: string;
  hunks: Hunk[];
  added?: number;
  removed?: number;
  created?: boolean;
  deleted?: boolean;
  truncated?: boolean;
}

function displayOf(result: ToolResult): unknown {
  return (result as { display?: unknown }).display;
}

function isDiff(d: unknown): d is DiffLike {
  if (typeof d !== 'object' || d === null) return false;
  const v = d as Record<string, unknown>;
  return v.kind === 'diff' && typeof v.path === 'string' && Array.isArray(v.hunks);
}

export function relativePath(cwd: string, path: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** The file change a tool result describes, or undefined. */
export function fileEffectOf(result: ToolResult, cwd: string): Omit<FileEffect, 'tool' | 'callId'> | undefined {
  const d = displayOf(result);
  if (!isDiff(d)) return undefined;
  const counted = countLines(d.hunks);
  const { diff, cut } = hunksText(d.hunks);
  return {
    path: relativePath(cwd, d.path),
    change: d.created ? 'created' : d.deleted ? 'deleted' : 'modified',
    added: typeof d.added === 'number' ? d.added : counted.added,
    removed: typeof d.removed === 'number' ? d.removed : counted.removed,
    diff,
    ...(cut || d.truncated ? { diffCut: true } : {}),
    via: 'tool',
  };
}

// The shell tool's own ending lines (tools/shell.ts), read from the end of its result.
const EXIT_RE = /\n?\[exit code: (-?\d+)\]$/;
const SIGNAL_RE = /\n?\[terminated by signal ([A-Z0-9]+)\]$/;
const TIMEOUT_RE = /\n?\[timed out after [^\]]*\]$/;
const ABORT_RE = /\n?\[aborted: the run was stopped[^\]]*\]$/;

interface ShellLike {
  kind: 'shell';
  exitCode?: number;
  signal?: string;
  timedOut?: boolean;
  aborted?: boolean;
}

/** How a shell call ended, or undefined when no command ran (refused, bad arguments). */
export function commandEndingOf(result: ToolResult): Pick<CommandEffect, 'exitCode' | 'signal' | 'timedOut' | 'killed'> | undefined {
  const d = displayOf(result) as ShellLike | undefined;
  if (d && typeof d === 'object' && d.kind === 'shell') {
    return {
      ...(d.exitCode !== undefined ? { exitCode: d.exitCode } : {}),
      ...(d.signal ? { signal: d.signal } : {}),
      ...(d.timedOut ? { timedOut: true } : {}),
      ...(d.aborted ? { killed: true } : {}),
    };
  }
  const text = (result.success ? result.output : (result.error ?? '')).trimEnd();
  let m = EXIT_RE.exec(text);
  if (m) return { exitCode: Number(m[1]) };
  m = SIGNAL_RE.exec(text);
  if (m) return { signal: m[1] };
  if (TIMEOUT_RE.test(text)) return { timedOut: true };
  if (ABORT_RE.test(text)) return { killed: true };
  return undefined;
}

export function shellCommandOf(args: unknown): string | undefined {
  const c = (args as { command?: unknown } | undefined)?.command;
  return typeof c === 'string' ? c : undefined;
}

/** An MCP tool's server and the tool's own name (mcp__<server>__<tool>). */
export function mcpCallOf(toolName: string): { server: string; tool: string } | undefined {
  const server = mcpServerOf(toolName);
  if (!server) return undefined;
  return { server, tool: toolName.slice(MCP_PREFIX.length + server.length + 2) };
}
