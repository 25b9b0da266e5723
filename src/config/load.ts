// Finding, reading and layering the config files:
// built-in defaults < agent files (agentFiles.ts) < $ARBOR_HOME/config.toml <
// <cwd>/.arbor/config.toml < explicit path.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import type { LoadedConfig } from './types.js';
import { t } from '../i18n/index.js';
import { fileError, formatKeyPath, syntaxError } from './errors.js';
import { isTable, mergeLayers, type Layer, type RawTable } from './merge.js';
import { findUnknownKeys, suggestKey } from './schema.js';
import { validateConfig } from './validate.js';
import { builtinAgentsLayer, detectProviderFromEnv, starterLayer } from './defaults.js';
import { projectConfigPath, userConfigPath } from './paths.js';
import { neutralize } from '../text/untrusted.js';
import { capDescriptions, inertTable } from './inert.js';
import {
  agentFileLayers,
  parseAgentFile,
  readAgentFiles,
  relocateError,
  relocateWarning,
  unknownFrontmatterKeys,
  type AgentFileText,
} from './agentFiles.js';

/** The text of one config file and where it came from. */
export interface ConfigLayerText {
  file: string;
  text: string;
}

/** Parses TOML, turning a syntax error into a ConfigError with file, line and column. */
export function parseConfigText(text: string, file: string): RawTable {
  // Editors on some systems save a byte-order mark, which TOML does not allow.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return parse(body, { unsafeKeyBehaviour: 'throw' }) as RawTable;
  } catch (err) {
    if (err instanceof TomlError) {
      const problem = err.message.replace(/^Invalid TOML document: /, '').split('\n')[0];
      throw syntaxError(problem, file, err.line, err.column);
    }
    throw err;
  }
}

/** A file "defines" providers or agents when it has a non-empty table there (or a value
 * of the wrong kind, which validation will then report against that file). */
function definesSetup(data: RawTable): boolean {
  return ['providers', 'agents'].some((key) => {
    const v = data[key];
    return v !== undefined && !(isTable(v) && Object.keys(v).length === 0);
  });
}

/** Layers already read, lowest precedence first. The starter setup fills in when no
 * layer defines a provider or agent; with no layers at all, an API key in the
 * environment picks the starter's provider. The built-in agents are always there unless
 * a definition of the same name replaces them. */
export function loadConfigFromTexts(
  layers: readonly ConfigLayerText[],
  env: NodeJS.ProcessEnv = process.env,
  agentFiles: readonly AgentFileText[] = [],
): LoadedConfig {
  const parsed: Layer[] = layers.map(({ file, text }) => ({ file, data: inertTable(parseConfigText(text, file)) }));
  const defs = agentFiles.map(parseAgentFile).map((def) => {
    const name = neutralize(def.name);
    return { ...def, name, table: inertTable(def.table, ['agents', name]) };
  });

  const warnings = new Set<string>();
  for (const layer of parsed) {
    for (const path of findUnknownKeys(layer.data)) {
      const key = String(path[path.length - 1]);
      const suggestion = suggestKey(path);
      const values = { key, path: formatKeyPath(path), file: layer.file, suggestion };
      warnings.add(t(suggestion ? 'config:warnings.unknownKeySuggest' : 'config:warnings.unknownKey', values));
    }
  }

  let autoDetectedFrom: string | undefined;
  let builtin: RawTable;
  const ownSetup = parsed.some((l) => definesSetup(l.data));
  if (!ownSetup) {
    const detected = parsed.length === 0 ? detectProviderFromEnv(env) : undefined;
    autoDetectedFrom = detected?.envVar;
    builtin = starterLayer(detected);
  } else {
    // The built-in agents stay beside a file's own setup, each replaced only by a
    // definition of its name; they keep the built-in offline provider (validate.ts adds
    // it), and the file's agents, not them, decide the default agent.
    builtin = builtinAgentsLayer();
  }

  // Agent files sit between the built-in setup and the TOML files, and each definition
  // replaces a lower one of the same name whole (agentFileLayers); a TOML table wins.
  const fromToml = new Map<string, string>();
  for (const l of parsed) if (isTable(l.data.agents)) for (const name of Object.keys(l.data.agents)) fromToml.set(name, l.file!);
  const files = agentFileLayers(defs, fromToml);
  for (const w of files.warnings) warnings.add(w);
  const builtinAgents = isTable(builtin.agents) ? builtin.agents : {};
  for (const def of files.kept) {
    for (const w of unknownFrontmatterKeys(def)) warnings.add(w);
    delete builtinAgents[def.name];
  }
  // A table replaces the built-in agent of its name whole, as an agent file does: the
  // built-in's prompt and delegates must not leak into the user's agent key by key.
  for (const name of fromToml.keys()) delete builtinAgents[name];
  if (ownSetup) pruneBuiltinProfiles(builtin, parsed);
  const builtinOnly = ownSetup ? Object.keys(builtinAgents) : [];

  const { data, origins } = mergeLayers([{ data: builtin }, ...files.layers, ...parsed]);
  if (ownSetup) builtinLast(data, builtin);
  let validated: ReturnType<typeof validateConfig>;
  try {
    validated = validateConfig(data, origins, env, builtinOnly);
  } catch (err) {
    throw relocateError(err, files.kept);
  }
  const { config, warnings: semantic } = validated;
  for (const w of semantic) warnings.add(relocateWarning(w, files.kept));

  const agentSources: Record<string, string | undefined> = {};
  for (const alias of Object.keys(config.agents)) agentSources[alias] = origins.fileFor(['agents', alias]);
  for (const w of capDescriptions(config, agentSources)) warnings.add(w);
  const loaded: LoadedConfig = {
    config,
    sources: [...files.kept.map((d) => d.file), ...layers.map((l) => l.file)],
    warnings: [...warnings],
    agentSources,
  };
  if (autoDetectedFrom) loaded.autoDetectedFrom = autoDetectedFrom;
  return loaded;
}

/** The built-in profiles stay only for the built-in agents still there, and a file's
 * profile of the same name replaces the built-in one whole: its policy never blends in. */
function pruneBuiltinProfiles(builtin: RawTable, parsed: readonly Layer[]): void {
  const agents = Object.values(isTable(builtin.agents) ? builtin.agents : {}).filter(isTable);
  for (const [key, field] of [
    ['risk_profiles', 'risk_profile'],
    ['runtime_profiles', 'runtime_profile'],
  ] as const) {
    const own = builtin[key];
    if (!isTable(own)) continue;
    const used = new Set(agents.map((a) => a[field]));
    for (const name of Object.keys(own)) if (!used.has(name)) delete own[name];
    for (const l of parsed) if (isTable(l.data[key])) for (const name of Object.keys(l.data[key])) delete own[name];
  }
}

/** Built-in agents and profiles that no file touched go after the file's own, so lists
 * (`known: …`, /agents list) start with what the user wrote. */
function builtinLast(data: RawTable, builtin: RawTable): void {
  for (const key of ['agents', 'risk_profiles', 'runtime_profiles']) {
    const merged = data[key];
    const own = builtin[key];
    if (!isTable(merged) || !isTable(own)) continue;
    const fromFiles = Object.keys(merged).filter((name) => merged[name] !== undefined && !sameBuiltin(merged[name], own[name]));
    const reordered = Object.create(null) as RawTable;
    for (const name of [...fromFiles, ...Object.keys(merged).filter((n) => !fromFiles.includes(n))]) reordered[name] = merged[name];
    data[key] = reordered;
  }
}

function sameBuiltin(merged: unknown, builtin: unknown): boolean {
  return builtin !== undefined && JSON.stringify(merged) === JSON.stringify(builtin);
}

function readLayer(file: string): ConfigLayerText {
  try {
    return { file, text: readFileSync(file, 'utf8') };
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw fileError(t('config:errors.readFailed', { reason }), file);
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/** Which of the project's settings (`./.arbor/config.toml`, `./.arbor/agents/*.md`) a load
 * uses. Absent: read them from disk (tests, tools that trust the folder). `exclude`: none of
 * them (an untrusted folder). `texts`: exactly these, as the trust decision read and hashed
 * them, so what was trusted is what is applied. */
export type ProjectLayers =
  { mode: 'exclude' } | { mode: 'texts'; config?: ConfigLayerText; agentFiles: AgentFileText[]; warnings: string[] };

/** The config files that apply, lowest precedence first; the same file reached twice
 * (e.g. cwd is the home directory) is read once, at its highest place. */
export function configFiles(opts: { cwd: string; env?: NodeJS.ProcessEnv; explicitPath?: string; withProject?: boolean }): string[] {
  const env = opts.env ?? process.env;
  const files = [userConfigPath(env), ...(opts.withProject === false ? [] : [projectConfigPath(opts.cwd)])].filter((f) => existsSync(f));
  if (opts.explicitPath !== undefined) {
    const explicit = resolve(opts.cwd, opts.explicitPath);
    if (!existsSync(explicit)) throw fileError(t('config:errors.fileNotFound'), explicit);
    files.push(explicit);
  }
  return files.filter((f, i) => !files.slice(i + 1).some((later) => sameFile(f, later)));
}

/** Loads the layered config. Throws ConfigError (see formatConfigError) on any problem. */
export function loadConfig(opts: { cwd: string; env?: NodeJS.ProcessEnv; explicitPath?: string; project?: ProjectLayers }): LoadedConfig {
  const env = opts.env ?? process.env;
  const readWarnings: string[] = [];
  let layers: ConfigLayerText[];
  let agentFiles: AgentFileText[];
  if (opts.project === undefined) {
    layers = configFiles({ ...opts, env }).map(readLayer);
    agentFiles = readAgentFiles(opts.cwd, env, readWarnings);
  } else {
    // The user's own files from disk; the project's as decided (or none).
    layers = configFiles({ ...opts, env, withProject: false }).map(readLayer);
    agentFiles = readAgentFiles(opts.cwd, env, readWarnings, ['user']);
    if (opts.project.mode === 'texts') {
      const { config, agentFiles: projectAgents, warnings } = opts.project;
      // Below an explicit --config file, as configFiles orders them.
      if (config) layers.splice(opts.explicitPath !== undefined ? layers.length - 1 : layers.length, 0, config);
      agentFiles.push(...projectAgents);
      readWarnings.push(...warnings);
    }
  }
  const loaded = loadConfigFromTexts(layers, env, agentFiles);
  return readWarnings.length ? { ...loaded, warnings: [...readWarnings, ...loaded.warnings] } : loaded;
}
