// Key hints at the bottom of the viewer, packed onto the rows it can spare.
import { t } from '../../i18n/index.js';
import { fitLine, lineWidth, type Line, type Seg } from '../cards/lines.js';

export type HintMode = 'session' | 'child' | 'search' | 'approval';

const KEYS: Record<HintMode, string[]> = {
  session: ['move', 'page', 'ends', 'expand', 'all', 'open', 'copy', 'search', 'match', 'close'],
  child: ['move', 'page', 'ends', 'expand', 'all', 'open', 'copy', 'copyAll', 'search', 'match', 'back'],
  search: ['find', 'cancel'],
  approval: ['approval'],
};

/** Each hint is "<keys> <action>"; the keys part is the catalog entry's first word. */
function piece(key: string): Line {
  const text = t(`transcript:hints.${key}`);
  const space = text.indexOf(' ');
  if (space < 0) return [{ text, bold: true }];
  return [
    { text: text.slice(0, space), bold: true },
    { text: text.slice(space), dim: true },
  ];
}

export function hintLines(mode: HintMode, width: number, rows: number): Line[] {
  if (rows <= 0) return [];
  const sep: Seg = { text: '  ' };
  const lines: Line[] = [];
  let cur: Line = [];
  for (const key of KEYS[mode]) {
    const p = piece(key);
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
