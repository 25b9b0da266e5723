// `arbor export <session id or prefix> [--format md|json] [-o path]`: a saved session's run
// tree as a report (runtime/ledger/treeReport.ts), without opening the chat.
import { parseArgs } from 'node:util';
import { arborHome } from '../config/paths.js';
import { t } from '../i18n/index.js';
import { restoreSession } from '../persistence/sessionRestore.js';
import { buildTreeReport, writeTreeReport, type ExportFormat } from '../runtime/ledger/treeReport.js';
import { neutralize } from '../text/untrusted.js';

export async function runExport(
  args: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { format: { type: 'string' }, output: { type: 'string', short: 'o' } },
    });
  } catch (e) {
    err.write(`${t('cli:export.usage', { error: neutralize((e as Error).message) })}\n`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (positionals.length !== 1) {
    err.write(`${t('cli:export.usage', { error: t('cli:export.needSession') })}\n`);
    return 2;
  }
  const format = values.format;
  if (format !== undefined && format !== 'md' && format !== 'json') {
    err.write(`${t('cli:export.usage', { error: t('cli:export.badFormat', { value: neutralize(format) }) })}\n`);
    return 2;
  }
  try {
    const session = restoreSession(arborHome(), positionals[0]);
    const report = buildTreeReport(session.id, session.runs);
    const path = writeTreeReport(report, { path: values.output, format: format as ExportFormat | undefined });
    out.write(`${t('ledger:exported', { path, runs: report.runs.length })}\n`);
    return 0;
  } catch (e) {
    err.write(`${neutralize((e as Error).message)}\n`);
    return 1;
  }
}
