// What the approval prompt shows of a call beside its arguments: the tool's own preview
// (write_file / edit_file: the diff it would make, Tool.preview) and whether the change
// replaces a file the model has not seen. "Seen" is decided from what the runtime itself
// recorded for the run (its transcript's finished file-tool calls), never from model text.
import { resolve } from 'node:path';
import type { ToolDisplay } from '../model/toolDisplay.js';
import { expandHome, realpathLoose } from '../tools/pathGuard.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { transcriptOf, type RuntimeStore } from './store.js';

/** What the prompt gets besides the arguments. */
export interface ApprovalPreview {
  display: ToolDisplay;
  /** The call changes an existing file that no read_file, edit_file or write_file call of
   * this run (the chat's conversation for the root) has read or written. */
  unreadFile?: boolean;
}

/** Calls after which the model has seen a file's content (or made it). */
export const FILE_SEEING_TOOLS: ReadonlySet<string> = new Set(['read_file', 'edit_file', 'write_file']);

/** Where a path argument lands: relative to the run's cwd, through symlinks where they exist. */
function where(path: string, cwd: string): string {
  const abs = resolve(cwd, expandHome(path));
  try {
    return realpathLoose(abs);
  } catch {
    return abs;
  }
}

/** Whether a finished call of this run's transcript read or wrote `path`. */
export function fileSeenByRun(store: RuntimeStore, runId: string, cwd: string, path: string): boolean {
  const target = where(path, cwd);
  for (const item of transcriptOf(store.getState(), runId)) {
    if (item.kind !== 'tool' || item.status !== 'ok' || !FILE_SEEING_TOOLS.has(item.name)) continue;
    const p = (item.args as { path?: unknown } | null)?.path;
    if (typeof p === 'string' && p !== '' && where(p, cwd) === target) return true;
  }
  return false;
}

/** The tool's preview of this call and the unread-file mark; undefined when it has none. */
export async function approvalPreview(
  store: RuntimeStore,
  tool: Tool,
  args: unknown,
  ctx: ToolContext,
): Promise<ApprovalPreview | undefined> {
  const display = await tool.preview?.(args, ctx).catch(() => undefined);
  if (!display) return undefined;
  const unread = display.kind === 'diff' && !display.created && !fileSeenByRun(store, ctx.runId, ctx.cwd, display.path);
  return unread ? { display, unreadFile: true } : { display };
}
