// The path-escape variants of the hardening suite (issue #10's confinement, the file tools'
// tests) as one table, so the same variants run against a plain confined folder
// (test/unit/tools/pathEscapes.test.ts) and inside a real git worktree as an isolated child
// sees its tools (test/unit/worktrees/pathEscapes.test.ts, issue #23). Every variant aims at
// a folder the tools must not reach (`target`) and must be refused.
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The file every target holds, and the text no refused read may return. */
export const TARGET_FILE = 'secret.txt';
export const targetText = (target: string) => `ESCAPE-TARGET ${target}\n`;

/** Where one run of the table happens. */
export interface EscapeWorld {
  /** The folder the tools work in (their cwd; allowed_roots = ["."]). */
  root: string;
  /** A folder outside the root: it holds TARGET_FILE and must stay as it was. */
  target: string;
}

export type EscapeTool = 'read_file' | 'write_file' | 'edit_file' | 'list_files' | 'grep' | 'glob';

export interface EscapeVariant {
  /** Unique, also usable as a tool call id. */
  id: string;
  tool: EscapeTool;
  args: (w: EscapeWorld) => Record<string, unknown>;
  /** A piece of the refusal's text. */
  refusal: string;
}

/** The symlinks the variants use, made inside the root before they run: name → target. */
export function escapeLinks(w: EscapeWorld): Array<[name: string, to: string]> {
  return [
    // A directory link leaving the root, a file link, a dangling link whose file would be
    // created outside.
    ['out', w.target],
    ['secret-link', `${w.target}/${TARGET_FILE}`],
    ['dangling', `${w.target}/not-yet.txt`],
  ];
}

const abs = (w: EscapeWorld, name = TARGET_FILE) => `${w.target}/${name}`;
/** The same place as a relative path climbing out of the root with '..'. */
const up = (w: EscapeWorld, name = TARGET_FILE) => relative(w.root, abs(w, name));
const upDir = (w: EscapeWorld) => relative(w.root, w.target);

const OUTSIDE = 'outside the allowed roots';
const DOTDOT = "'..' leads outside the allowed roots";
const LINK = 'resolves through a symlink';
const RELATIVE = 'must be relative';
const PWNED = { content: 'PWNED\n' };
const EDIT = { old_string: 'ESCAPE-TARGET', new_string: 'PWNED' };

export const ESCAPE_VARIANTS: EscapeVariant[] = [
  { id: 'read_abs', tool: 'read_file', args: (w) => ({ path: abs(w) }), refusal: OUTSIDE },
  { id: 'read_dotdot', tool: 'read_file', args: (w) => ({ path: up(w) }), refusal: DOTDOT },
  { id: 'read_dir_link', tool: 'read_file', args: () => ({ path: `out/${TARGET_FILE}` }), refusal: LINK },
  { id: 'read_file_link', tool: 'read_file', args: () => ({ path: 'secret-link' }), refusal: LINK },

  { id: 'write_abs', tool: 'write_file', args: (w) => ({ path: abs(w), ...PWNED }), refusal: OUTSIDE },
  { id: 'write_abs_new', tool: 'write_file', args: (w) => ({ path: abs(w, 'new.txt'), ...PWNED }), refusal: OUTSIDE },
  { id: 'write_dotdot', tool: 'write_file', args: (w) => ({ path: up(w, 'new.txt'), ...PWNED }), refusal: DOTDOT },
  { id: 'write_dir_link', tool: 'write_file', args: () => ({ path: 'out/new.txt', ...PWNED }), refusal: LINK },
  { id: 'write_dir_link_deeper', tool: 'write_file', args: () => ({ path: 'out/sub/new.txt', ...PWNED }), refusal: LINK },
  { id: 'write_file_link', tool: 'write_file', args: () => ({ path: 'secret-link', ...PWNED }), refusal: LINK },
  { id: 'write_dangling_link', tool: 'write_file', args: () => ({ path: 'dangling', ...PWNED }), refusal: LINK },

  { id: 'edit_abs', tool: 'edit_file', args: (w) => ({ path: abs(w), ...EDIT }), refusal: OUTSIDE },
  { id: 'edit_dotdot', tool: 'edit_file', args: (w) => ({ path: up(w), ...EDIT }), refusal: DOTDOT },
  { id: 'edit_dir_link', tool: 'edit_file', args: () => ({ path: `out/${TARGET_FILE}`, ...EDIT }), refusal: LINK },
  { id: 'edit_file_link', tool: 'edit_file', args: () => ({ path: 'secret-link', ...EDIT }), refusal: LINK },

  { id: 'list_abs', tool: 'list_files', args: (w) => ({ path: w.target }), refusal: OUTSIDE },
  { id: 'list_dotdot', tool: 'list_files', args: (w) => ({ path: upDir(w) }), refusal: DOTDOT },
  { id: 'list_dir_link', tool: 'list_files', args: () => ({ path: 'out' }), refusal: LINK },
  { id: 'list_pattern_dotdot', tool: 'list_files', args: () => ({ pattern: '../*' }), refusal: RELATIVE },

  { id: 'grep_abs', tool: 'grep', args: (w) => ({ pattern: 'ESCAPE-TARGET', path: w.target }), refusal: OUTSIDE },
  { id: 'grep_dotdot', tool: 'grep', args: (w) => ({ pattern: 'ESCAPE-TARGET', path: upDir(w) }), refusal: DOTDOT },
  { id: 'grep_dir_link', tool: 'grep', args: () => ({ pattern: 'ESCAPE-TARGET', path: 'out' }), refusal: LINK },
  { id: 'grep_file_link', tool: 'grep', args: () => ({ pattern: 'ESCAPE-TARGET', path: 'secret-link' }), refusal: LINK },

  { id: 'glob_abs', tool: 'glob', args: (w) => ({ pattern: '**/*', path: w.target }), refusal: OUTSIDE },
  { id: 'glob_dotdot', tool: 'glob', args: (w) => ({ pattern: '**/*', path: upDir(w) }), refusal: DOTDOT },
  { id: 'glob_dir_link', tool: 'glob', args: () => ({ pattern: '**/*', path: 'out' }), refusal: LINK },
  { id: 'glob_pattern_dotdot', tool: 'glob', args: () => ({ pattern: '../*' }), refusal: RELATIVE },
];

/** A folder's state, byte for byte, without following links: path → content (files), link
 * target (links) or mode (folders); `.git` left out. Two equal states mean nothing changed. */
export function treeState(dir: string, skip: string[] = ['.git']): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      if (rel === '' && skip.includes(name)) continue;
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, path));
      if (st.isSymbolicLink()) out[path] = `link -> ${readlinkSync(join(dir, path))}`;
      else if (st.isDirectory()) {
        out[`${path}/`] = `dir ${(st.mode & 0o7777).toString(8)}`;
        walk(path);
      } else out[path] = `file ${(st.mode & 0o7777).toString(8)} ${readFileSync(join(dir, path)).toString('base64')}`;
    }
  };
  walk('');
  return out;
}
