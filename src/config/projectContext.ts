// Project context: the AGENTS.md files a project keeps for agents (the convention Codex,
// opencode and others read), added to the system prompt. Found from the working directory
// up to the repository root (the nearest folder holding `.git`; with none, the working
// directory alone), plus `$ARBOR_HOME/AGENTS.md` for the user's own instructions. Read once
// at launch; what was read and what the cap cut is kept for /context.
import { readHead, UnreadableFile } from './safeRead.js';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { t } from '../i18n/index.js';

export const CONTEXT_FILE_NAME = 'AGENTS.md';
/** `[context] max_kb` when the config leaves it out. */
export const DEFAULT_CONTEXT_MAX_KB = 32;

// Model-facing text: not localized.
export const CONTEXT_INTRO =
  '# Project context\n\n' +
  'Instructions from AGENTS.md files, farthest first. Where they disagree, the later (nearer) file wins. ' +
  'They come from files on disk, not from the user in this conversation.';
export const contextHeading = (path: string) => `## ${CONTEXT_FILE_NAME}: ${path}`;
export const contextCutMarker = (kept: number, size: number, maxKb: number) =>
  `[cut: the first ${kept} of ${size} bytes of this file are included (project context limit ${maxKb} KiB)]`;

/** Where a context file sits: the user's file or one of the project's. */
export type ContextFileScope = 'home' | 'project';

export interface ContextFile {
  path: string;
  scope: ContextFileScope;
  /** The file's size on disk, in bytes. */
  size: number;
  /** Bytes of it in the prompt: `size` when whole, less when the cap cut it, 0 when it did
   * not fit at all or could not be read. */
  loaded: number;
  /** The cap left out some or all of it. */
  cut: boolean;
  /** Why it could not be read (it is then left out). */
  error?: string;
}

export interface ProjectContext {
  /** The cap in KiB; 0 turns project context off. */
  maxKb: number;
  /** Files found, in prompt order: the home file first, then farthest to nearest. */
  files: ContextFile[];
  /** The folders searched for a project file, nearest first (the working directory up to
   * the repository root). */
  searched: string[];
  /** What goes after an agent's system prompt; '' when nothing was loaded. */
  text: string;
  /** Cut or unreadable files, each named. Paths are raw: neutralise before display. */
  warnings: string[];
}

/** The working directory and its ancestors up to the nearest one holding `.git` (a folder,
 * or a file in a worktree), nearest first; just the working directory outside a repository. */
export function contextFolders(cwd: string): string[] {
  const chain: string[] = [];
  for (let dir = resolve(cwd); ;) {
    chain.push(dir);
    if (existsSync(join(dir, '.git'))) return chain;
    const parent = dirname(dir);
    if (parent === dir) return [resolve(cwd)];
    dir = parent;
  }
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** An entry is there, even a symlink to nothing (reading it then says what is wrong). */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** `bytes` cut to at most `max` without splitting a UTF-8 character. */
function cutUtf8(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  let end = max;
  // Back up over continuation bytes (10xxxxxx) to the start of the character cut in two.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

interface Candidate {
  path: string;
  scope: ContextFileScope;
}

/** The files that exist, in prompt order (home first, then farthest to nearest); the same
 * file reached twice (the working directory is $ARBOR_HOME) counts once, in its project place. */
function candidates(cwd: string, home: string | undefined): { found: Candidate[]; searched: string[] } {
  const searched = contextFolders(cwd);
  const project = searched
    .slice()
    .reverse()
    .map((dir) => ({ path: join(dir, CONTEXT_FILE_NAME), scope: 'project' as const }))
    .filter((c) => present(c.path));
  const homeFile = home !== undefined ? join(home, CONTEXT_FILE_NAME) : undefined;
  const found: Candidate[] = [];
  if (homeFile && present(homeFile) && !project.some((p) => realOr(p.path) === realOr(homeFile))) {
    found.push({ path: homeFile, scope: 'home' });
  }
  found.push(...project);
  return { found, searched };
}

/** Finds and reads the context files. Never throws: an unreadable file is a warning naming
 * it. The cap counts file contents; it is spent nearest first (the nearest file is the most
 * specific), so when the files do not all fit, the farthest are cut or left out. */
export function loadProjectContext(opts: { cwd: string; home?: string; maxKb?: number }): ProjectContext {
  const maxKb = opts.maxKb ?? DEFAULT_CONTEXT_MAX_KB;
  const { found, searched } = candidates(opts.cwd, opts.home);
  if (maxKb <= 0) return { maxKb, files: [], searched, text: '', warnings: [] };
  let budget = maxKb * 1024;
  const files: ContextFile[] = [];
  const bodies = new Map<ContextFile, string>();
  // Nearest first for the budget; the prompt order is restored below.
  for (const c of found.slice().reverse()) {
    const file: ContextFile = { path: c.path, scope: c.scope, size: 0, loaded: 0, cut: false };
    files.unshift(file);
    let head: { size: number; bytes: Buffer };
    try {
      // A few bytes past the budget show whether it falls inside a character.
      head = readHead(c.path, budget + 4);
    } catch (err) {
      file.error =
        err instanceof UnreadableFile && err.code === 'ENOTREG'
          ? 'not a regular file'
          : ((err as Error & { code?: string }).code ?? (err as Error).message);
      continue;
    }
    file.size = head.size;
    const kept = cutUtf8(head.bytes, budget);
    file.loaded = kept.length;
    file.cut = kept.length < head.size;
    budget -= kept.length;
    if (kept.length > 0) bodies.set(file, kept.toString('utf8'));
  }
  const warnings: string[] = [];
  for (const f of files) {
    if (f.error !== undefined) warnings.push(t('context:unreadable', { file: f.path, error: f.error }));
    else if (f.cut && f.loaded === 0) warnings.push(t('context:left', { file: f.path, size: f.size, max: maxKb }));
    else if (f.cut) warnings.push(t('context:cut', { file: f.path, loaded: f.loaded, size: f.size, max: maxKb }));
  }
  const sections = files
    .filter((f) => bodies.has(f))
    .map((f) => {
      const body = bodies.get(f)!.replace(/\s+$/, '');
      return [contextHeading(f.path), '', body, ...(f.cut ? ['', contextCutMarker(f.loaded, f.size, maxKb)] : [])].join('\n');
    });
  const text = sections.length ? [CONTEXT_INTRO, ...sections].join('\n\n') : '';
  return { maxKb, files, searched, text, warnings };
}

/** An agent's system prompt with the project context after it (unchanged without one). */
export function withProjectContext(systemPrompt: string, context: string | undefined): string {
  return context ? `${systemPrompt}\n\n${context}` : systemPrompt;
}
