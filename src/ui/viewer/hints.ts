// Key hints at the bottom of the viewer, packed onto the rows it can spare.
import { t, type KeyUnder } from '../../i18n/index.js';
import type { KeyCommand } from '../../config/keySpec.js';
import { defaultKeyTable, type KeyTable } from '../keys/keyTable.js';
import { fitLine, lineWidth, type Line, type Seg } from '../text/segments.js';

export type HintMode = 'session' | 'child' | 'search' | 'approval';

/** The commands whose keys each hint shows (from the key table). */
const COMMANDS: Partial<Record<KeyUnder<'transcript:hints.'>, KeyCommand[]>> = {
  move: ['viewer.up', 'viewer.down'],
  page: ['viewer.page_up', 'viewer.page_down'],
  ends: ['viewer.first', 'viewer.last'],
  expand: ['viewer.expand'],
  all: ['viewer.expand_all'],
  open: ['viewer.open'],
  copy: ['viewer.copy'],
  copyAll: ['viewer.copy_all'],
  search: ['viewer.search'],
  match: ['viewer.next_match', 'viewer.prev_match'],
  close: ['viewer.close'],
  back: ['viewer.close'],
  find: ['chat.send'],
  cancel: ['chat.interrupt'],
  approval: ['approval.allow_once', 'approval.allow_session', 'approval.deny'],
};

const KEYS: Record<HintMode, KeyUnder<'transcript:hints.'>[]> = {
  session: ['move', 'page', 'ends', 'expand', 'all', 'open', 'copy', 'search', 'match', 'close'],
  child: ['move', 'page', 'ends', 'expand', 'all', 'open', 'copy', 'copyAll', 'search', 'match', 'back'],
  search: ['find', 'cancel'],
  approval: ['approval'],
};

/** Each hint is "<keys> <action>": the keys bold, the action dim. */
function piece(key: KeyUnder<'transcript:hints.'>, keys: KeyTable): Line {
  const label = keys.labels(COMMANDS[key] ?? []);
  const text = t(`transcript:hints.${key}`);
  if (!label) return [{ text, dim: true }];
  return [
    { text: label, bold: true },
    { text: ` ${text}`, dim: true },
  ];
}

export function hintLines(mode: HintMode, width: number, rows: number, keys: KeyTable = defaultKeyTable()): Line[] {
  if (rows <= 0) return [];
  const sep: Seg = { text: '  ' };
  const lines: Line[] = [];
  let cur: Line = [];
  for (const key of KEYS[mode]) {
    const p = piece(key, keys);
    if (cur.length > 0 && lineWidth(cur) + 2 + lineWidth(p) > width) {
      lines.push(cur);
      cur = [];
    }
    if (cur.length > 0) cur.push(sep);
    cur.push(...p);
  }
  if (cur.length > 0) lines.push(cur);
  const kept = lines.slice(0, rows);
  if (lines.length > rows && kept.length > 0) kept[kept.length - 1] = [...kept[kept.length - 1], { text: ' …', dim: true }];
  return kept.map((l) => fitLine(l, width));
}
