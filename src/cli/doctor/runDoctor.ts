// `arbor doctor`: one line per check, then a verdict; exit code 0 when every check holds.
import { loadConfig, type ProjectLayers } from '../../config/load.js';
import { arborHome } from '../../config/paths.js';
import { formatConfigError } from '../../config/errors.js';
import { OFFLINE_MODEL, OFFLINE_PROVIDER } from '../../config/defaults.js';
import type { LoadedConfig, ProviderConfig } from '../../config/types.js';
import { ConfigError } from '../../config/configError.js';
import { t } from '../../i18n/index.js';
import { createOfflineProvider } from '../../providers/offline.js';
import { formatCheckLine, type CheckLine } from './checkLine.js';
import { homeCheck, nodeCheck, terminalChecks, terminalFacts } from './environmentChecks.js';
import { probeProvider } from './providerProbe.js';
import { neutralize } from '../../text/untrusted.js';

export interface DoctorOptions {
  configPath?: string;
  out: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The folder's .arbor settings as the trust decision allows (cli/projectTrust.ts). */
  project?: ProjectLayers;
  /** Said among the config warnings (e.g. the folder is not trusted). */
  projectNotices?: string[];
  /** `--json`: one JSON document for scripts instead of the lines (doctorJson below). */
  json?: boolean;
}

/** What `arbor doctor --json` prints: every check in order, the failures counted, and `ok`
 * as the exit code says it. Statuses and field names are the contract; labels and details
 * are the same (localised, neutralised) text the lines show. */
export interface DoctorJson {
  ok: boolean;
  failed: number;
  checks: CheckLine[];
}

function configCheck(opts: DoctorOptions, env: NodeJS.ProcessEnv): { line: CheckLine; loaded?: LoadedConfig; warnings: CheckLine[] } {
  const label = t('doctor:config.label');
  try {
    const loaded = loadConfig({ cwd: opts.cwd ?? process.cwd(), env, explicitPath: opts.configPath, project: opts.project });
    const detail = loaded.sources.length
      ? t('doctor:config.valid', { files: loaded.sources.join(', ') })
      : t('doctor:config.validDefaults');
    const warnings = [...(opts.projectNotices ?? []), ...loaded.warnings].map((w): CheckLine => ({
      status: 'info',
      label: t('doctor:config.warningLabel'),
      detail: w,
    }));
    return { line: { status: 'ok', label, detail }, loaded, warnings };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { line: { status: 'fail', label, detail: formatConfigError(err) }, warnings: [] };
  }
}

/** The built-in model answers without a network: what arbor falls back to with no provider. */
async function offlineCheck(): Promise<CheckLine> {
  const label = t('doctor:offline.label');
  const config: ProviderConfig = { name: OFFLINE_PROVIDER, type: 'offline', model: OFFLINE_MODEL, headers: {} };
  try {
    const model = createOfflineProvider(config, { ARBOR_OFFLINE_DELAY_MS: '0' });
    let text = '';
    for await (const ev of model.stream({
      messages: [{ role: 'user', content: 'doctor' }],
      tools: [],
      signal: AbortSignal.timeout(5000),
    })) {
      if (ev.type === 'text') text += ev.delta;
    }
    if (text.trim()) return { status: 'ok', label, detail: t('doctor:offline.ok', { model: OFFLINE_MODEL }) };
    return { status: 'fail', label, detail: t('doctor:offline.silent') };
  } catch (err) {
    return { status: 'fail', label, detail: t('doctor:offline.failed', { message: (err as Error).message }) };
  }
}

export async function runDoctor(opts: DoctorOptions): Promise<number> {
  const env = opts.env ?? process.env;
  const lines: CheckLine[] = [];
  const print = (line: CheckLine) => {
    lines.push(line);
    if (!opts.json) opts.out.write(`${formatCheckLine(line)}\n`);
  };
  print(nodeCheck());
  for (const line of terminalChecks(terminalFacts(env))) print(line);
  print(homeCheck(arborHome(env)));
  const config = configCheck(opts, env);
  print(config.line);
  for (const w of config.warnings) print(w);
  if (config.loaded) {
    // One after the other, so the lines come out in the config's order as they are known.
    for (const provider of Object.values(config.loaded.config.providers)) print(await probeProvider(provider, env));
  } else {
    print({ status: 'fail', label: t('doctor:provider.allLabel'), detail: t('doctor:provider.notChecked') });
  }
  print(await offlineCheck());
  const failed = lines.filter((l) => l.status === 'fail').length;
  if (opts.json) {
    const checks = lines.map((l) => ({ status: l.status, label: neutralize(l.label), detail: neutralize(l.detail) }));
    const doc: DoctorJson = { ok: failed === 0, failed, checks };
    opts.out.write(`${JSON.stringify(doc)}\n`);
  } else {
    opts.out.write(`\n${failed === 0 ? t('doctor:allPassed') : t('doctor:someFailed', { count: failed })}\n`);
  }
  return failed === 0 ? 0 : 1;
}
