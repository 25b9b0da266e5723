// What read_file, write_file and list_files share: the path guard under the caller's whole
// authority, the checked open, the confinement rules in words, and the messages every file
// tool may return. Every path goes through the path guard with the caller's allowed_roots /
// forbidden_paths (and those of every bounded ceiling above it). Results and errors are read
// by the model, so their text is fixed English.
import { z } from 'zod';
import { confinePath, forbiddenPathsOf } from './authority.js';
import { openForRead, type Opened } from './confinedOpen.js';
import { PATH_SYMLINK_LOOP, realpathLoose } from './pathGuard.js';
import type { ToolCaller, ToolContext } from './types.js';

export const IO_ERROR = (action: string, p: string, err: unknown) => `Could not ${action} '${p}': ${(err as Error).message ?? String(err)}`;
export const ABORTED = (tool: string) => `${tool} was aborted.`;

export const filePath = z.string().describe('File path, relative to the workspace or absolute.');

/** The path guard under the caller's whole authority (its profile and every ceiling). */
export function guard(input: string, ctx: ToolContext, forWrite = false) {
  return confinePath(input, ctx.cwd, ctx.caller, forWrite);
}

/** Opens the real path the guard checked and verifies the descriptor (confinedOpen.ts). */
export async function openChecked(input: string, lexical: string, ctx: ToolContext, action: 'read' | 'list'): Promise<Opened> {
  let checked: string;
  try {
    checked = realpathLoose(lexical);
  } catch {
    return { ok: false, error: PATH_SYMLINK_LOOP(input) };
  }
  const opened = await openForRead(checked, input, (where) => guard(where, ctx));
  if (!opened.ok && opened.code !== undefined && opened.code !== 'ENOENT') {
    return { ...opened, error: IO_ERROR(action, input, new Error(opened.error)) };
  }
  return opened;
}

/** The confinement rules in words, for tool descriptions. */
export function describeConfinement(caller: ToolCaller): string {
  const { allowed_roots: roots } = caller.risk;
  const forbidden = [...new Set(forbiddenPathsOf(caller))];
  const rootText = roots.length > 0 ? `inside the allowed roots (${roots.join(', ')})` : 'nowhere: no allowed roots are configured';
  // A bounded ceiling narrows the roots further; say so, so the model does not try paths
  // its caller never allowed.
  const ceilingRoots = (caller.ceilings ?? []).map((c) => c.allowed_roots.join(', '));
  const ceilingText = ceilingRoots.length > 0 ? ` and also inside ${ceilingRoots.map((r) => `(${r})`).join(' and ')}` : '';
  const forbiddenText = forbidden.length > 0 ? `; these paths are forbidden: ${forbidden.join(', ')}` : '';
  const fence = caller.risk.worktree_fence;
  const fenceText = fence ? `; inside ${fence.folder} only this run's own worktree (${fence.except.join(', ')}) is reachable` : '';
  return `Relative paths resolve against the workspace. Only paths ${rootText}${ceilingText} are reachable${forbiddenText}${fenceText}; '..' escapes and symlinks leaving the roots are refused.`;
}

/** Backs off from a cut inside a multi-byte UTF-8 character. */
export function utf8Boundary(buf: Buffer, end: number): number {
  let i = end;
  while (i > 0 && i < buf.length && (buf[i] & 0xc0) === 0x80) i--;
  return i;
}
