// The one key table: every command's keys (defaults from config/keySpec.ts, replaced by
// `[keys]` in config.toml) and how they read in hints. The /agents header, the viewer
// footer, /help and the approval prompt all print keys from here, so changing a key is
// one edit and every hint follows.
import { createContext, useContext } from 'react';
import { KEY_COMMANDS, parseKeySpec, type KeyCommand, type KeyOverrides, type KeySpec } from '../../config/keySpec.js';
import type { KeyPress } from './tokenizer.js';
import { t, type KeyUnder } from '../../i18n/index.js';

interface Entry {
  /** Every key that triggers the command. */
  all: KeySpec[];
  /** The keys hints show. */
  shown: KeySpec[];
}

const ARROW_NAMES: Record<string, string> = { up: '↑', down: '↓', left: '←', right: '→' };
/** Keys whose printed name is in the catalog (ui:keyNames), e.g. Enter / Intro. */
const NAMED = new Set<string>([
  'return',
  'escape',
  'pageup',
  'pagedown',
  'home',
  'end',
  'tab',
  'space',
  'backspace',
  'delete',
  'insert',
] satisfies KeyUnder<'ui:keyNames.'>[]);
const isNamed = (name: string): name is KeyUnder<'ui:keyNames.'> => NAMED.has(name);
const ARROWS = new Set(Object.values(ARROW_NAMES));

/** "Ctrl+T", "Shift+Enter", "Alt+B", "x", "↑", in the UI language. */
export function formatKey(k: KeySpec): string {
  let name = ARROW_NAMES[k.name] ?? (isNamed(k.name) ? t(`ui:keyNames.${k.name}`) : /^f\d+$/.test(k.name) ? k.name.toUpperCase() : k.name);
  if ((k.ctrl || k.meta) && [...name].length === 1) name = name.toUpperCase();
  const mods = [k.ctrl && t('ui:keyNames.ctrl'), k.meta && t('ui:keyNames.alt'), k.shift && t('ui:keyNames.shift')].filter(Boolean);
  return [...mods, name].join('+');
}

/** "ctrl+t", "shift+enter", "X": how config.toml writes a key. */
export function specText(k: KeySpec): string {
  const name = { return: 'enter', escape: 'esc', pageup: 'pgup', pagedown: 'pgdn' }[k.name] ?? k.name;
  return `${k.ctrl ? 'ctrl+' : ''}${k.meta ? 'alt+' : ''}${k.shift ? 'shift+' : ''}${name}`;
}

function parseAll(list: readonly string[], command: string): KeySpec[] {
  return list.map((text) => {
    const spec = parseKeySpec(text);
    if (!spec) throw new Error(`key table: ${command} has an unparseable default key "${text}"`);
    return spec;
  });
}

export class KeyTable {
  private readonly entries = new Map<KeyCommand, Entry>();

  constructor(overrides: KeyOverrides = {}) {
    for (const [id, def] of Object.entries(KEY_COMMANDS) as [KeyCommand, { keys: readonly string[]; alsoKeys?: readonly string[] }][]) {
      const custom = overrides[id];
      if (custom) {
        const all = parseAll(custom, id);
        this.entries.set(id, { all, shown: all });
      } else {
        const shown = parseAll(def.keys, id);
        this.entries.set(id, { shown, all: [...shown, ...parseAll(def.alsoKeys ?? [], id)] });
      }
    }
  }

  /** Whether the key press triggers the command. */
  is(command: KeyCommand, k: KeyPress): boolean {
    const entry = this.entries.get(command);
    if (!entry) return false;
    for (const spec of entry.all) {
      if (spec.name === k.name && spec.ctrl === k.ctrl && spec.meta === k.meta && spec.shift === k.shift) return true;
    }
    return false;
  }

  /** The first of the commands the key triggers. */
  which<C extends KeyCommand>(commands: readonly C[], k: KeyPress): C | undefined {
    return commands.find((c) => this.is(c, k));
  }

  /** Every key of the command, written as config.toml takes it ("ctrl+t"). */
  specs(command: KeyCommand): string[] {
    return (this.entries.get(command)?.all ?? []).map(specText);
  }

  /** The command's keys as a hint shows them: "Esc/q", "Ctrl+T". */
  label(command: KeyCommand): string {
    return joinKeys((this.entries.get(command)?.shown ?? []).map(formatKey));
  }

  /** Keys of several commands in one hint: "↑↓", "PgUp/PgDn", "n/N". */
  labels(commands: readonly KeyCommand[]): string {
    const parts = commands.map((c) => this.label(c)).filter(Boolean);
    return parts.every((p) => ARROWS.has(p)) ? parts.join('') : joinKeys(parts);
  }
}

/** "Esc/q"; when a key is "/" itself a slash cannot separate them ("//n/N" read as
 * nothing), so they are listed "/, n, N". */
function joinKeys(parts: readonly string[]): string {
  return parts.some((p) => p.startsWith('/') || p.endsWith('/')) ? parts.join(', ') : parts.join('/');
}

const DEFAULT = new KeyTable();

export function defaultKeyTable(): KeyTable {
  return DEFAULT;
}

/** The table in force: the App provides the one built from the config. */
export const KeyTableContext = createContext<KeyTable>(DEFAULT);

export function useKeyTable(): KeyTable {
  return useContext(KeyTableContext);
}
