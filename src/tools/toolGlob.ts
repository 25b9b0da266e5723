// Tool lists in risk profiles (allowed_tools, excluded_tools, auto_approve, always_ask)
// take exact names or globs such as `mcp__fs__*`, so a user can admit or refuse a whole
// MCP server without listing tools it may add later. An entry with no glob character is
// compared as it is; globs are compiled once and kept.
import picomatch from 'picomatch';

const GLOB_CHARS = /[*?[\]{}!()+@]/;
const compiled = new Map<string, (name: string) => boolean>();

function matcher(pattern: string): (name: string) => boolean {
  let m = compiled.get(pattern);
  if (!m) {
    m = picomatch(pattern, { dot: true });
    compiled.set(pattern, m);
  }
  return m;
}

export function nameMatches(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  return GLOB_CHARS.test(pattern) && matcher(pattern)(name);
}

/** Whether any entry of `patterns` names `name`. */
export function listNames(patterns: readonly string[], name: string): boolean {
  return patterns.some((p) => nameMatches(p, name));
}
