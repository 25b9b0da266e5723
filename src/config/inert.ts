// Config and agent files are text someone else may have written: a name, model, description
// or label holding ESC, OSC or C1 bytes would drive the terminal wherever it is shown (the
// status bar, /model, /agents, the doctor, an error quoting it). So every key and string
// value is made inert (text/untrusted.ts) once, as a layer is read, before anything refers
// to it: references stay consistent (default_agent still names its agent) and no view or
// error message can forget it. What is handed to a program rather than shown (an MCP
// server's command, args, env, cwd and headers, a provider's headers) keeps its bytes; the
// trust prompt neutralises those when it lists them.
import { neutralize } from '../text/untrusted.js';
import { t } from '../i18n/index.js';
import { quote } from './errors.js';
import { isTable, type RawTable } from './merge.js';
import type { ArborConfig } from './types.js';

/** Where strings are passed on as they are: the value's path from the top of the file. */
function verbatim(path: readonly string[]): boolean {
  if (path[0] === 'mcp_servers') return path.length >= 3;
  return path[0] === 'providers' && path[2] === 'headers';
}

function inertValue(value: unknown, path: string[]): unknown {
  if (typeof value === 'string') return verbatim(path) ? value : neutralize(value);
  if (Array.isArray(value)) return value.map((v) => inertValue(v, path));
  if (!isTable(value)) return value;
  // Null-prototype, as the parsers build tables: no key can reach a prototype.
  const out = Object.create(null) as RawTable;
  for (const [k, v] of Object.entries(value)) {
    const key = verbatim(path) ? k : neutralize(k);
    out[key] = inertValue(v, [...path, key]);
  }
  return out;
}

/** A parsed config table with every displayed key and string made inert. `base` is where
 * the table sits (an agent file's table sits at `agents.<name>`). */
export function inertTable(table: RawTable, base: string[] = []): RawTable {
  return inertValue(table, base) as RawTable;
}

/** Descriptions go into every caller's delegate roster and into /agents list: one longer
 * than this is cut to it. */
export const DESCRIPTION_MAX_CHARS = 1000;

/** Cuts over-long agent descriptions in place; a warning per cut names the file. */
export function capDescriptions(config: ArborConfig, sources: Record<string, string | undefined>): string[] {
  const warnings: string[] = [];
  for (const agent of Object.values(config.agents)) {
    const d = agent.description;
    if (d === undefined || d.length <= DESCRIPTION_MAX_CHARS) continue;
    let cut = d.slice(0, DESCRIPTION_MAX_CHARS - 1);
    // Never half a surrogate pair.
    if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
    agent.description = `${cut}…`;
    warnings.push(
      t('agentFiles:warnings.descriptionCut', {
        file: sources[agent.alias] ?? 'config',
        name: quote(agent.alias),
        length: d.length,
        max: DESCRIPTION_MAX_CHARS,
      }),
    );
  }
  return warnings;
}
