// Confines file-tool paths to the risk profile's allowed_roots. Two checks run on every
// path: a lexical one (what the model asked for, `..` and absolute paths included) and a
// real one (where the filesystem would actually take us, following symlinks), so a link
// inside a root cannot smuggle a read or write outside it.
// A fence is a forbidden folder with holes: an isolated run's worktrees folder, where only
// its own worktree is reachable (runtime/worktrees/place.ts sets it). The holes pierce only
// their own fence, never a forbidden path.
// Error strings are read by the model, so they are fixed English text, not localized.
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface PathGuardOptions {
  cwd: string;
  allowedRoots: string[];
  forbiddenPaths: string[];
  /** The caller is about to create or overwrite the path. */
  forWrite?: boolean;
  /** Home directory for `~` expansion; defaults to os.homedir(). */
  home?: string;
  /** Folders refused except for the trees listed in each (absolute paths). */
  fences?: Fence[];
}

/** A folder no path may enter except through `except` (absolute trees inside it). */
export interface Fence {
  folder: string;
  except: string[];
}

/** What walks (list_files, grep, glob) skip: a forbidden folder, with the holes its fence
 * leaves (none for a forbidden path). Absolute, plain data (grep's threads get it too). */
export interface Barrier {
  path: string;
  except: string[];
}

export type PathGuardResult = { ok: true; path: string } | { ok: false; error: string };

export const PATH_EMPTY = 'Path is empty: give a file or directory path inside the allowed roots.';
export const PATH_NO_ROOTS = (p: string) =>
  `Path '${p}' refused: no allowed_roots are configured for this agent's risk profile, so no path is reachable.`;
export const PATH_DOTDOT_ESCAPE = (p: string, roots: string[]) =>
  `Path '${p}' refused: '..' leads outside the allowed roots (${roots.join(', ')}).`;
export const PATH_OUTSIDE_ROOTS = (p: string, roots: string[]) =>
  `Path '${p}' refused: it is outside the allowed roots (${roots.join(', ')}).`;
export const PATH_FORBIDDEN = (p: string, forbidden: string) => `Path '${p}' refused: it is inside the forbidden path '${forbidden}'.`;
export const PATH_SYMLINK_ESCAPE = (p: string, real: string, roots: string[]) =>
  `Path '${p}' refused: it resolves through a symlink to '${real}', which is outside the allowed roots (${roots.join(', ')}).`;
export const PATH_SYMLINK_FORBIDDEN = (p: string, real: string, forbidden: string) =>
  `Path '${p}' refused: it resolves through a symlink to '${real}', inside the forbidden path '${forbidden}'.`;
export const PATH_FENCED = (p: string, folder: string) =>
  `Path '${p}' refused: it is inside '${folder}', where an isolated run may reach only its own worktree.`;
export const PATH_SYMLINK_FENCED = (p: string, real: string, folder: string) =>
  `Path '${p}' refused: it resolves through a symlink to '${real}', inside '${folder}', where an isolated run may reach only its own worktree.`;
export const PATH_IS_DIRECTORY = (p: string) => `Path '${p}' is a directory; give a file path to write.`;
export const PATH_SYMLINK_LOOP = (p: string) => `Path '${p}' refused: too many levels of symbolic links.`;

/** `~` and `~/x` expand to the home directory; `~user` forms are left alone. */
export function expandHome(p: string, home = homedir()): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith(`~${sep}`)) return join(home, p.slice(2));
  return p;
}

/** Absolute form of a configured root or forbidden path: `~` expanded, relative to cwd. */
export function resolveConfigPath(p: string, cwd: string, home = homedir()): string {
  return resolve(cwd, expandHome(p, home));
}

export function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

const MAX_LINK_HOPS = 40;

/** Where the filesystem would take `p`: the real path of the target if it exists, else of
 * its nearest existing ancestor with the missing tail appended. Dangling links are followed
 * to where they point, since writing through one would create the file there. */
export function realpathLoose(p: string, hops = 0): string {
  if (hops > MAX_LINK_HOPS) throw new Error('ELOOP');
  try {
    return realpathSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw err;
  }
  let st;
  try {
    st = lstatSync(p);
  } catch {
    st = undefined;
  }
  if (st?.isSymbolicLink()) {
    return realpathLoose(resolve(dirname(p), readlinkSync(p)), hops + 1);
  }
  const parent = dirname(p);
  if (parent === p) return p;
  return join(realpathLoose(parent, hops), basename(p));
}

function hasDotDot(input: string): boolean {
  return input.split(/[\\/]+/).includes('..');
}

/** The one test of "forbidden": inside a barrier's folder and in none of its holes. */
export function barrierAt<B extends Barrier>(path: string, barriers: B[]): B | undefined {
  return barriers.find((b) => isInside(path, b.path) && !b.except.some((e) => isInside(path, e)));
}

type Refusing = Barrier & { shown: string; fence: boolean };

function refusal(input: string, hit: Refusing, real?: string): string {
  if (real === undefined) return hit.fence ? PATH_FENCED(input, hit.shown) : PATH_FORBIDDEN(input, hit.shown);
  return hit.fence ? PATH_SYMLINK_FENCED(input, real, hit.shown) : PATH_SYMLINK_FORBIDDEN(input, real, hit.shown);
}

/** Resolves `input` against cwd and checks it against the roots and forbidden paths. */
export function resolveConfinedPath(input: string, opts: PathGuardOptions): PathGuardResult {
  const home = opts.home ?? homedir();
  if (typeof input !== 'string' || input.trim() === '') return { ok: false, error: PATH_EMPTY };
  const shownRoots = opts.allowedRoots;
  if (shownRoots.length === 0) return { ok: false, error: PATH_NO_ROOTS(input) };

  const lexical = resolve(opts.cwd, expandHome(input, home));
  const roots = shownRoots.map((r) => resolveConfigPath(r, opts.cwd, home));
  const forbidden: Refusing[] = [
    ...opts.forbiddenPaths.map((f) => ({ shown: f, path: resolveConfigPath(f, opts.cwd, home), except: [], fence: false })),
    ...(opts.fences ?? []).map((f) => ({ shown: f.folder, path: f.folder, except: f.except, fence: true })),
  ];

  if (!roots.some((r) => isInside(lexical, r))) {
    const error = hasDotDot(input) ? PATH_DOTDOT_ESCAPE(input, shownRoots) : PATH_OUTSIDE_ROOTS(input, shownRoots);
    return { ok: false, error };
  }
  const hitLexical = barrierAt(lexical, forbidden);
  if (hitLexical) return { ok: false, error: refusal(input, hitLexical) };

  let real: string;
  let realRoots: string[];
  let realForbidden: Refusing[];
  try {
    real = realpathLoose(lexical);
    realRoots = roots.map((r) => realpathLoose(r));
    realForbidden = forbidden.map((f) => ({ ...f, path: realpathLoose(f.path), except: f.except.map((e) => realpathLoose(e)) }));
  } catch {
    return { ok: false, error: PATH_SYMLINK_LOOP(input) };
  }
  if (!realRoots.some((r) => isInside(real, r))) {
    return { ok: false, error: PATH_SYMLINK_ESCAPE(input, real, shownRoots) };
  }
  const hitReal = barrierAt(real, realForbidden);
  if (hitReal) return { ok: false, error: refusal(input, hitReal, real) };

  if (opts.forWrite) {
    try {
      if (statSync(real).isDirectory()) return { ok: false, error: PATH_IS_DIRECTORY(input) };
    } catch {
      // Missing target: the writer creates it.
    }
  }
  return { ok: true, path: lexical };
}
