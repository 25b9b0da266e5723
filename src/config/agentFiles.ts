// Agent files: Markdown with YAML frontmatter in $ARBOR_HOME/agents/*.md (user) and
// ./.arbor/agents/*.md (project). The frontmatter is an `[agents.<name>]` table in another
// syntax and the body is its system_prompt, so a file becomes one more config layer and goes
// through the same agent schema as TOML (schema.ts): every key an agent table knows works
// here, with the same checks. This file reads and parses them, orders them (built-in < user
// files < project files < TOML tables) and puts the file, line and field back into the
// errors and warnings the schema raises against them.
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { t } from '../i18n/index.js';
import { ConfigError } from './configError.js';
import { describeValue, fileError, formatKeyPath, quote, type KeyPath } from './errors.js';
import { isTable, type Layer, type RawTable } from './merge.js';
import { arborHome } from './paths.js';
import { findUnknownKeys } from './schema.js';
import { readSmallFile, UnreadableFile } from './safeRead.js';

/** An agent file is a prompt and a few keys: anything bigger is not one (and a 10 MB
 * description or prompt would ride along in every request). */
export const AGENT_FILE_MAX_BYTES = 256 * 1024;

export type AgentFileScope = 'user' | 'project';

/** The text of one agent file and which directory it was found in. */
export interface AgentFileText {
  file: string;
  text: string;
  scope: AgentFileScope;
}

/** One parsed agent file: its agent's name and the agent table its frontmatter and body
 * make. */
export interface AgentFileDef {
  file: string;
  scope: AgentFileScope;
  name: string;
  table: RawTable;
  /** Line and column of a field of the frontmatter in the file (its value, or with `key`
   * its key), when it is there. */
  locate(field: KeyPath, key?: boolean): { line: number; col: number } | undefined;
}

/** The directories agent files are read from, user first. */
export function agentFileDirs(cwd: string, env: NodeJS.ProcessEnv = process.env): { scope: AgentFileScope; dir: string }[] {
  return [
    { scope: 'user', dir: join(arborHome(env), 'agents') },
    { scope: 'project', dir: join(resolve(cwd), '.arbor', 'agents') },
  ];
}

function sameDir(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/** Reads one agent file; a FIFO, device, directory or oversized file is skipped with a
 * warning naming it (`warnings`), any other failure is a ConfigError naming it. */
export function readAgentFile(file: string, scope: AgentFileScope, warnings: string[]): AgentFileText | undefined {
  try {
    return { file, text: readSmallFile(file, AGENT_FILE_MAX_BYTES), scope };
  } catch (err) {
    if (err instanceof UnreadableFile && err.code === 'TOOBIG') {
      warnings.push(t('agentFiles:warnings.tooBig', { file, size: formatBytes(err.size ?? 0), max: formatBytes(AGENT_FILE_MAX_BYTES) }));
      return undefined;
    }
    if (err instanceof UnreadableFile && (err.code === 'ENOTREG' || err.code === 'EISDIR')) {
      warnings.push(t('agentFiles:warnings.notAFile', { file }));
      return undefined;
    }
    const reason = err instanceof UnreadableFile ? err.code : ((err as NodeJS.ErrnoException).code ?? (err as Error).message);
    throw fileError(t('config:errors.readFailed', { reason }), file);
  }
}

/** Sizes as a person reads them: 256 KB, 10 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** The `*.md` names of one agents folder, in name order. */
export function agentFileNames(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.name.endsWith('.md') && (e.isFile() || e.isSymbolicLink()))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    throw fileError(t('agentFiles:errors.readDirFailed', { reason: (err as NodeJS.ErrnoException).code ?? (err as Error).message }), dir);
  }
}

/** Every `*.md` file of both directories (or of `scopes`), in name order per directory; a
 * directory reached twice (the working directory is the home) is read once, as the
 * project's. Files that are not agent files at all are skipped with a warning in `warnings`. */
export function readAgentFiles(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  warnings: string[] = [],
  scopes: readonly AgentFileScope[] = ['user', 'project'],
): AgentFileText[] {
  const dirs = agentFileDirs(cwd, env).filter((d) => existsSync(d.dir));
  const out: AgentFileText[] = [];
  dirs.forEach(({ scope, dir }, i) => {
    if (dirs.slice(i + 1).some((later) => sameDir(dir, later.dir))) return;
    if (!scopes.includes(scope)) return;
    for (const name of agentFileNames(dir)) {
      const read = readAgentFile(join(dir, name), scope, warnings);
      if (read) out.push(read);
    }
  });
  return out;
}

/** `<file>:<line>:<col>: <problem>`: not TOML's "invalid TOML" wording (errors.ts). */
function syntaxError(problem: string, file: string, line: number, column: number): ConfigError {
  return new ConfigError({ message: `${file}:${line}:${column}: ${problem}`, file, line, column });
}

const FENCE = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/** Splits `---\n<yaml>\n---\n<body>`; the frontmatter starts on line 2 of the file. */
function splitFrontmatter(text: string, file: string): { yaml: string; body: string } {
  const lines = text.split('\n');
  if (!FENCE.test(lines[0] ?? '')) throw syntaxError(t('agentFiles:errors.noFrontmatter'), file, 1, 1);
  const end = lines.findIndex((l, i) => i > 0 && CLOSE.test(l));
  if (end < 0) throw syntaxError(t('agentFiles:errors.unclosedFrontmatter'), file, 1, 1);
  return { yaml: lines.slice(1, end).join('\n'), body: lines.slice(end + 1).join('\n') };
}

/** `agents.x.delegates[0]` style field text back into segments. */
function fieldSegments(field: string): (string | number)[] {
  const segs: (string | number)[] = [];
  for (const m of field.matchAll(/"((?:[^"\\]|\\.)*)"|([^.[\]"]+)|\[(\d+)\]/g)) {
    if (m[3] !== undefined) segs.push(Number(m[3]));
    else if (m[1] !== undefined) segs.push(JSON.parse(`"${m[1]}"`) as string);
    else if (m[2] !== undefined) segs.push(m[2]);
  }
  return segs;
}

type Ranged = { range?: [number, number, number] | null };

/** The key's own node for a mapping key (where an unknown key is), else the value's. */
function nodeAt(doc: Document, field: KeyPath, key: boolean): Ranged | undefined {
  const path = field as (string | number)[];
  if (!key || path.length === 0) return doc.getIn(path, true) as Ranged | undefined;
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
  if (!isMap(parent)) return doc.getIn(path, true) as Ranged | undefined;
  const last = path[path.length - 1];
  const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === last);
  return (pair?.key as Ranged | undefined) ?? undefined;
}

function locator(doc: Document, counter: LineCounter) {
  return (field: KeyPath, key = false): { line: number; col: number } | undefined => {
    const offset = nodeAt(doc, field, key)?.range?.[0];
    if (offset === undefined) return undefined;
    const pos = counter.linePos(offset);
    // +1: the frontmatter begins after the opening fence.
    return { line: pos.line + 1, col: pos.col };
  };
}

/** The frontmatter as plain values. yaml refuses aliases that expand past its limit (an
 * alias bomb) with a bare ReferenceError: reported like any bad agent file, at the first
 * alias. */
function frontmatterValue(doc: Document, counter: LineCounter, file: string): unknown {
  try {
    return doc.toJS();
  } catch (err) {
    if (!(err instanceof ReferenceError)) throw err;
    let offset: number | undefined;
    visit(doc, {
      Alias(_key, node) {
        offset = node.range?.[0];
        return visit.BREAK;
      },
    });
    const pos = offset !== undefined ? counter.linePos(offset) : { line: 0, col: 1 };
    throw syntaxError(t('agentFiles:errors.aliasBomb', { problem: err.message }), file, pos.line + 1, pos.col);
  }
}

/** Parses one agent file into its agent table. Throws a ConfigError with the file (and the
 * line and column for YAML syntax) when it is not an agent file at all. */
export function parseAgentFile({ file, text, scope }: AgentFileText): AgentFileDef {
  const unix = (text.startsWith('\uFEFF') ? text.slice(1) : text).replace(/\r\n?/g, '\n');
  const { yaml, body } = splitFrontmatter(unix, file);
  const counter = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0] ?? { line: 0, col: 1 };
    const problem = first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw syntaxError(t('agentFiles:errors.yaml', { problem }), file, pos.line + 1, pos.col);
  }
  const locate = locator(doc, counter);
  const fail = (field: string, problem: string): never => {
    const at = locate([field]);
    const where = at ? `${file}:${at.line}:${at.col}` : file;
    throw new ConfigError({ message: `${where}: ${field}: ${problem}`, file, line: at?.line, column: at?.col, keyPath: field });
  };

  const data: unknown = doc.contents === null ? {} : frontmatterValue(doc, counter, file);
  if (!isTable(data) || (doc.contents !== null && !isMap(doc.contents))) {
    throw syntaxError(t('agentFiles:errors.notMapping', { got: describeValue(data) }), file, 2, 1);
  }
  // Null-prototype, as smol-toml builds TOML tables: no key can reach a prototype.
  const table = Object.create(null) as RawTable;
  for (const [key, value] of Object.entries(data)) {
    if (key === '__proto__') fail(key, t('agentFiles:errors.unsafeName', { name: quote(key) }));
    // A key written with no value (`model:`) is a key left unset.
    if (value !== null) table[key] = value;
  }

  let name = basename(file, '.md');
  if ('name' in table) {
    const v = table.name;
    if (typeof v !== 'string' || v.trim() === '') {
      fail(
        'name',
        typeof v === 'string'
          ? t('config:errors.empty')
          : t('config:errors.expectedType', { expected: t('config:types.string'), got: describeValue(v) }),
      );
    }
    name = (v as string).trim();
    delete table.name;
  }
  if (name === '__proto__') fail('name', t('agentFiles:errors.unsafeName', { name: quote(name) }));
  const prompt = body.replace(/^\s*\n/, '').trimEnd();
  if (prompt !== '') {
    if ('system_prompt' in table) fail('system_prompt', t('agentFiles:errors.promptTwice'));
    table.system_prompt = prompt;
  }
  return { file, scope, name, table, locate };
}

/** The agent files as config layers, lowest first, and the warnings their order raised:
 * a project file replaces a user file of the same name and a TOML table replaces both,
 * whole (never merged key by key), each time with a warning naming both places. */
export function agentFileLayers(
  defs: readonly AgentFileDef[],
  tomlAgents: ReadonlyMap<string, string>,
): { layers: Layer[]; kept: AgentFileDef[]; warnings: string[] } {
  const byName = new Map<string, AgentFileDef>();
  const warnings: string[] = [];
  for (const def of defs) {
    const earlier = byName.get(def.name);
    if (earlier) warnings.push(t('agentFiles:warnings.duplicate', { name: quote(def.name), winner: def.file, loser: earlier.file }));
    byName.set(def.name, def);
  }
  const kept: AgentFileDef[] = [];
  for (const def of byName.values()) {
    const toml = tomlAgents.get(def.name);
    if (toml !== undefined) {
      warnings.push(t('agentFiles:warnings.duplicate', { name: quote(def.name), winner: toml, loser: def.file }));
      continue;
    }
    kept.push(def);
  }
  const layers = kept.map((def) => ({ file: def.file, data: { agents: { [def.name]: def.table } } as RawTable }));
  return { layers, kept, warnings };
}

/** Unknown frontmatter keys, as warnings with the file, line and field. */
export function unknownFrontmatterKeys(def: AgentFileDef): string[] {
  return findUnknownKeys({ agents: { [def.name]: def.table } }).map((path) => {
    const field = path.slice(2);
    const at = def.locate(field, true);
    const where = at ? `${def.file}:${at.line}:${at.col}` : def.file;
    return t('agentFiles:warnings.unknownKey', { field: formatKeyPath(field), where });
  });
}

/** An error or warning the schema raised against an agent file's table is in TOML terms
 * (`<file>: agents.<name>.<field>: <problem>`): this says it in the file's own terms,
 * `<file>:<line>:<col>: <field>: <problem>`. */
function relocate(
  message: string,
  defs: readonly AgentFileDef[],
): { message: string; def: AgentFileDef; field: string; at?: { line: number; col: number } } | undefined {
  for (const def of defs) {
    const prefix = `${def.file}: ${formatKeyPath(['agents', def.name])}`;
    if (!message.startsWith(prefix)) continue;
    const rest = message.slice(prefix.length);
    const m = /^((?:\.[^:]+|\[\d+\])*): (.*)$/s.exec(rest);
    if (!m) continue;
    const field = m[1].replace(/^\./, '');
    const at = field ? def.locate(fieldSegments(field)) : undefined;
    const where = at ? `${def.file}:${at.line}:${at.col}` : def.file;
    return { message: [where, field, m[2]].filter(Boolean).join(': '), def, field, at };
  }
  return undefined;
}

export function relocateWarning(message: string, defs: readonly AgentFileDef[]): string {
  return relocate(message, defs)?.message ?? message;
}

export function relocateError(err: unknown, defs: readonly AgentFileDef[]): unknown {
  if (!(err instanceof ConfigError) || defs.length === 0) return err;
  const moved = relocate(err.message, defs);
  if (!moved) return err;
  return new ConfigError({
    message: moved.message,
    file: moved.def.file,
    line: moved.at?.line,
    column: moved.at?.col,
    keyPath: moved.field || undefined,
  });
}
