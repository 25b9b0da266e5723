// `/agents list`: the defined agents, one block each — alias (marked when it is the agent
// the user talks to), provider and model, where it was defined, and its roster text.
import { relative, isAbsolute } from 'node:path';
import { t } from '../../i18n/index.js';
import type { AgentDefinition } from '../../config/agentList.js';
import { neutralize } from '../../text/untrusted.js';

/** A path as short as it can be said: relative inside the working directory, `~/…` in the
 * home directory. */
export function shortPath(path: string, cwd: string, home: string): string {
  const inCwd = relative(cwd, path);
  if (inCwd && !inCwd.startsWith('..') && !isAbsolute(inCwd)) return inCwd;
  const inHome = home ? relative(home, path) : '';
  if (inHome && !inHome.startsWith('..') && !isAbsolute(inHome)) return `~/${inHome}`;
  return path;
}

export function formatAgentList(defs: readonly AgentDefinition[], where: { cwd: string; home: string }): string {
  if (defs.length === 0) return t('agentFiles:list.none');
  const lines = [t('agentFiles:list.title', { count: defs.length })];
  for (const d of defs) {
    const marks = [d.root ? t('agentFiles:list.root') : '', d.enabled ? '' : t('agentFiles:list.disabled')].filter(Boolean).join(', ');
    lines.push(`  ${d.alias}${marks ? ` (${marks})` : ''}  ${d.provider} · ${d.model}`);
    const source =
      d.source === undefined
        ? t('agentFiles:list.builtin')
        : t('agentFiles:list.source', { source: shortPath(d.source, where.cwd, where.home) });
    lines.push(`    ${source}`);
    if (d.description) lines.push(`    ${d.description.replace(/\s+/g, ' ').trim()}`);
  }
  // Names, models and descriptions are file contents: made inert before the terminal.
  return neutralize(lines.join('\n'));
}
