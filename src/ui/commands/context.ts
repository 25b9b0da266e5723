import { homedir } from 'node:os';
import { t } from '../../i18n/index.js';
import type { ProjectContextReport } from '../../runtime/runtimeApi.js';
import { formatBytes } from '../../text/sizes.js';
import { neutralize } from '../../text/untrusted.js';
import type { SlashCommand } from './registry.js';

/** Sizes in the unit a person reads (text/sizes.ts); a 200-byte file is "200 B". */
export const contextSize = formatBytes;

/** Paths come from the disk: shown neutralised, the home folder as ~. */
function showPath(path: string): string {
  const home = homedir();
  return neutralize(home && home !== '/' && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);
}

export function describeContext(report: ProjectContextReport, alias: string): string {
  // Whether .arbor/ applied: said even with project context off.
  const trust = report.projectTrust ? [t(`trust:context.${report.projectTrust}`)] : [];
  if (report.maxKb <= 0) return [t('context:command.off'), ...trust].join('\n');
  const lines: string[] = [];
  if (report.files.length === 0) {
    lines.push(t('context:command.none', { folders: report.searched.map(showPath).join(', ') }));
  } else {
    lines.push(t('context:command.title', { max: formatBytes(report.maxKb * 1024) }));
    for (const f of report.files) {
      const path = f.scope === 'home' ? `${showPath(f.path)} ${t('context:command.home')}` : showPath(f.path);
      const size = contextSize(f.size);
      const line =
        f.error !== undefined
          ? t('context:command.unreadable', { path, error: neutralize(f.error) })
          : !f.cut
            ? t('context:command.loaded', { path, size })
            : f.loaded === 0
              ? t('context:command.left', { path, size })
              : t('context:command.cut', { path, size, loaded: contextSize(f.loaded) });
      lines.push(`  ${line}`);
    }
    const loaded = report.files.reduce((sum, f) => sum + f.loaded, 0);
    lines.push(t('context:command.total', { loaded: formatBytes(loaded), max: formatBytes(report.maxKb * 1024) }));
  }
  if (report.agentOptedOut) lines.push(t('context:command.agentOff', { alias: neutralize(alias) }));
  lines.push(...trust);
  return lines.join('\n');
}

/** /context: which AGENTS.md files the agent's system prompt carries, how big each is and
 * whether the cap cut it (config/projectContext.ts found and read them at launch). */
export const contextCommand: SlashCommand = {
  name: 'context',
  summary: 'context:command.summary',
  maxArgs: 0,
  run(_args, ctx) {
    const report = ctx.runtime.projectContext();
    if (!report) {
      ctx.print(t('context:command.unavailable'));
      return;
    }
    ctx.print(describeContext(report, ctx.runtime.store.getState().info.agentAlias));
  },
};
