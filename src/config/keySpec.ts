// Key names as people write them ("ctrl+t", "shift+enter", "alt+b", "pgup", "X") and the
// commands they can be bound to. This is data only: the config layer validates `[keys]`
// with it, the UI's key table adds the hints and handlers. Lives here, below the UI, so
// config validation can name a bad key without importing React.

/** A key as the keypress layer reports it. `name` is a printable character ("a", "X",
 * "/", " " is "space") or a key name ("return", "up", "f5", ...). */
export interface KeySpec {
  name: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
}

/** Named keys (besides single printable characters), with the words people use for them. */
const NAMES: Record<string, string> = {
  enter: 'return',
  return: 'return',
  esc: 'escape',
  escape: 'escape',
  tab: 'tab',
  space: 'space',
  backspace: 'backspace',
  bs: 'backspace',
  delete: 'delete',
  del: 'delete',
  insert: 'insert',
  ins: 'insert',
  up: 'up',
  down: 'down',
  left: 'left',
  right: 'right',
  home: 'home',
  end: 'end',
  pageup: 'pageup',
  pgup: 'pageup',
  pagedown: 'pagedown',
  pgdn: 'pagedown',
  pgdown: 'pagedown',
};
for (let i = 1; i <= 12; i++) NAMES[`f${i}`] = `f${i}`;

const MODIFIERS: Record<string, 'ctrl' | 'meta' | 'shift'> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  c: 'ctrl',
  alt: 'meta',
  meta: 'meta',
  option: 'meta',
  m: 'meta',
  shift: 'shift',
  s: 'shift',
};

/** "ctrl+shift+left" → a KeySpec, or undefined when it does not name a key. A single
 * character is itself ("X" is shift+x as typed, and matches the typed "X"). */
export function parseKeySpec(text: string): KeySpec | undefined {
  const raw = text.trim();
  if (raw === '') return undefined;
  // "+" alone, or a chord ending in "+" ("ctrl++"), names the plus key.
  const parts = raw === '+' ? ['+'] : raw.endsWith('++') ? [...raw.slice(0, -2).split('+'), '+'] : raw.split('+');
  const spec: KeySpec = { name: '', ctrl: false, meta: false, shift: false };
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    if (!last) {
      const mod = MODIFIERS[part.toLowerCase()];
      if (!mod || part === '') return undefined;
      spec[mod] = true;
      continue;
    }
    if ([...part].length === 1) {
      // eslint-disable-next-line no-control-regex -- control characters are what it matches
      if (/[\u0000-\u001f\u007f]/.test(part)) return undefined;
      spec.name = part === ' ' ? 'space' : part;
      // Shift+x is the "X" a terminal sends.
      if (spec.shift && !spec.ctrl && !spec.meta && part.toLowerCase() !== part.toUpperCase()) {
        spec.shift = false;
        spec.name = part.toUpperCase();
        return spec;
      }
      // Ctrl and Alt chords are reported lower-case: Ctrl+T and Ctrl+t are the same key.
      if ((spec.ctrl || spec.meta) && part.toLowerCase() !== part.toUpperCase()) spec.name = part.toLowerCase();
      return spec;
    }
    const named = NAMES[part.toLowerCase()];
    if (!named) return undefined;
    spec.name = named;
  }
  return spec.name ? spec : undefined;
}

export function sameKey(a: KeySpec, b: KeySpec): boolean {
  return a.name === b.name && a.ctrl === b.ctrl && a.meta === b.meta && a.shift === b.shift;
}

/**
 * Every bindable command and its default keys. `keys` are shown in hints; `alsoKeys` work
 * too but are not listed (vi-style j/k, Home/End beside g/G). A `[keys]` override replaces
 * both. Ids are "<group>.<command>", written in config.toml as `[keys.<group>] <command> = ...`.
 */
export const KEY_COMMANDS = {
  // the chat
  'chat.send': { keys: ['enter'] },
  'chat.newline': { keys: ['shift+enter', 'ctrl+j'], alsoKeys: ['alt+enter'] },
  'chat.history_prev': { keys: ['up'] },
  'chat.history_next': { keys: ['down'] },
  'chat.complete': { keys: ['tab'] },
  'chat.interrupt': { keys: ['esc'] },
  'chat.cancel': { keys: ['ctrl+c'] },
  'chat.quit': { keys: ['ctrl+d'] },
  'chat.redraw': { keys: ['ctrl+l'] },
  'chat.transcript': { keys: ['ctrl+o'] },
  'chat.agents': { keys: ['ctrl+t'] },
  // the line editor
  'edit.line_start': { keys: ['ctrl+a', 'home'] },
  'edit.line_end': { keys: ['ctrl+e', 'end'] },
  'edit.left': { keys: ['left', 'ctrl+b'] },
  'edit.right': { keys: ['right', 'ctrl+f'] },
  'edit.word_left': { keys: ['alt+b', 'ctrl+left'], alsoKeys: ['alt+left'] },
  'edit.word_right': { keys: ['alt+f', 'ctrl+right'], alsoKeys: ['alt+right'] },
  'edit.kill_start': { keys: ['ctrl+u'] },
  'edit.kill_end': { keys: ['ctrl+k'] },
  'edit.kill_word': { keys: ['ctrl+w', 'alt+backspace'] },
  'edit.yank': { keys: ['ctrl+y'] },
  'edit.backspace': { keys: ['backspace'], alsoKeys: ['ctrl+h', 'shift+backspace'] },
  'edit.delete': { keys: ['delete'] },
  // the approval prompt
  'approval.allow_once': { keys: ['y'] },
  'approval.allow_session': { keys: ['a'] },
  // a child's ask: allow for this child, for the whole tree this turn
  'approval.allow_child': { keys: ['c'] },
  'approval.allow_tree': { keys: ['t'] },
  'approval.deny': { keys: ['n', 'esc'] },
  'approval.up': { keys: ['up'], alsoKeys: ['k'] },
  'approval.down': { keys: ['down'], alsoKeys: ['j'] },
  'approval.choose': { keys: ['enter'] },
  'approval.scroll_up': { keys: ['pgup'] },
  'approval.scroll_down': { keys: ['pgdn'] },
  // a diff taller than its window: ↑/↓ scroll it instead of moving the choice
  'approval.focus': { keys: ['tab'] },
  // the /agents pane
  'agents.up': { keys: ['up'], alsoKeys: ['k'] },
  'agents.down': { keys: ['down'], alsoKeys: ['j'] },
  'agents.page_up': { keys: ['pgup'] },
  'agents.page_down': { keys: ['pgdn'] },
  'agents.first': { keys: ['g'], alsoKeys: ['home'] },
  'agents.last': { keys: ['G'], alsoKeys: ['end'] },
  'agents.pause': { keys: ['space'] },
  'agents.kill': { keys: ['x'] },
  'agents.kill_all': { keys: ['X'] },
  'agents.confirm': { keys: ['y'] },
  'agents.spawn_pause': { keys: ['p'] },
  'agents.steer': { keys: ['s'] },
  'agents.open': { keys: ['enter'] },
  'agents.filter': { keys: ['f'] },
  // a selected isolated child's queued merge (issue #23): apply, skip, keep the branch, re-run
  'agents.merge_apply': { keys: ['a'] },
  'agents.merge_skip': { keys: ['d'] },
  'agents.merge_keep': { keys: ['b'] },
  'agents.merge_rerun': { keys: ['r'] },
  // its diff, files and conflict check in the pane
  'agents.merge_view': { keys: ['v'] },
  'agents.close': { keys: ['esc', 'q'] },
  // the transcript viewer
  'viewer.up': { keys: ['up'], alsoKeys: ['k'] },
  'viewer.down': { keys: ['down'], alsoKeys: ['j'] },
  'viewer.page_up': { keys: ['pgup'] },
  'viewer.page_down': { keys: ['pgdn'] },
  'viewer.first': { keys: ['g'], alsoKeys: ['home'] },
  'viewer.last': { keys: ['G'], alsoKeys: ['end'] },
  'viewer.expand': { keys: ['enter', 'space'] },
  'viewer.expand_all': { keys: ['e'] },
  'viewer.open': { keys: ['o'] },
  'viewer.copy': { keys: ['c'] },
  'viewer.copy_all': { keys: ['C'] },
  'viewer.search': { keys: ['/'] },
  'viewer.next_match': { keys: ['n'] },
  'viewer.prev_match': { keys: ['N'] },
  'viewer.close': { keys: ['esc'], alsoKeys: ['q'] },
  // the fan-out confirmation ([delegation] confirm_fanout_over)
  'fanout.approve': { keys: ['enter'] },
  'fanout.all': { keys: ['a', 'y'] },
  'fanout.deny': { keys: ['n', 'esc'] },
  'fanout.less': { keys: ['-'], alsoKeys: ['left', 'down'] },
  'fanout.more': { keys: ['+'], alsoKeys: ['right', 'up', '='] },
} as const satisfies Record<string, { keys: readonly string[]; alsoKeys?: readonly string[] }>;

export type KeyCommand = keyof typeof KEY_COMMANDS;

export function isKeyCommand(id: string): id is KeyCommand {
  return Object.prototype.hasOwnProperty.call(KEY_COMMANDS, id);
}

/** `[keys]` from config.toml, validated: command id → the keys that replace its defaults. */
export type KeyOverrides = Partial<Record<KeyCommand, string[]>>;
