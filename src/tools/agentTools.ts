// An agent's own `tools` allow-list (an agent file's frontmatter or `[agents.<alias>]
// tools`): names or globs such as "mcp__fs__*". It only ever narrows: it filters the
// registry the agent's risk profile (and every ceiling above it) already produced, so a name
// listed here that the profile denies stays denied.
import picomatch from 'picomatch';
import type { ToolRegistry } from './registry.js';

/** The registry with only the tools a pattern names; absent patterns leave it as it is, an
 * empty list leaves no tools. */
export function narrowToAgentTools(registry: ToolRegistry, patterns: readonly string[] | undefined): ToolRegistry {
  if (patterns === undefined) return registry;
  // Tool names are not paths: `*` may match any character, dots and slashes included.
  const matches = patterns.map((p) => picomatch(p, { dot: true, noglobstar: false, bash: true }));
  return registry.filter((tool) => matches.some((m) => m(tool.name)));
}
