// The pane's header (spawn pause, counts, depth, tree tokens and cost, filter, position),
// the runaway-guard banner and the key hints, as lines of exact width.
import { t, type KeyUnder } from '../../i18n/index.js';
import type { KeyCommand } from '../../config/keySpec.js';
import type { RunawayAction } from '../../config/types.js';
import { defaultKeyTable, type KeyTable } from '../keys/keyTable.js';
import type { Controls } from '../../model/controls.js';
import { formatCost, formatTokens } from '../text/format.js';
import { packLines, wrapSeg } from './segments.js';
import type { Line, Seg } from '../text/segments.js';
import type { AgentsFilter, TreeTotals } from './tree.js';

const SEP: Seg = { text: ' · ', dim: true };

export interface HeaderOptions {
  totals: TreeTotals;
  spawnPaused: boolean;
  filter: AgentsFilter;
  selected: number;
  count: number;
  width: number;
}

export function headerLines(opts: HeaderOptions): Line[] {
  return packHeader(headerPieces(opts), opts);
}

/** The header's pieces but the selection's position: they change with the tree, not with a
 * key that moves the selection (the pane keeps them per view). */
export function headerPieces(opts: Omit<HeaderOptions, 'selected' | 'count' | 'width'>): Line[] {
  const { totals } = opts;
  const pieces: Line[] = [
    [{ text: t('agents:pane.title'), bold: true }],
    opts.spawnPaused
      ? [{ text: t('agents:pane.spawnPaused'), color: 'yellow', bold: true }]
      : [{ text: t('agents:pane.spawnOn'), dim: true }],
    ...(totals.turn
      ? [
          [
            {
              text: t('agents:pane.turn', { status: t(`agents:status.${totals.turn}`) }),
              color: totals.turn === 'running' ? 'cyan' : 'yellow',
            },
          ],
        ]
      : []),
    [{ text: t('agents:pane.running', { count: totals.running }), color: totals.running ? 'cyan' : undefined }],
    [{ text: t('agents:pane.queued', { count: totals.queued }), dim: totals.queued === 0 }],
    [{ text: t('agents:pane.paused', { count: totals.paused }), color: totals.paused ? 'yellow' : undefined, dim: totals.paused === 0 }],
  ];
  if (totals.awaiting) pieces.push([{ text: t('agents:pane.awaiting', { count: totals.awaiting }), color: 'yellow' }]);
  pieces.push(
    [{ text: t('agents:pane.finished', { count: totals.finished }), dim: true }],
    [{ text: t('agents:pane.depth', { depth: totals.maxDepth }), dim: true }],
    [{ text: t('agents:pane.tokens', { tokens: formatTokens(totals.tokens), cost: formatCost(totals.costUsd) }), dim: true }],
  );
  if (opts.filter !== 'all')
    pieces.push([{ text: t('agents:pane.filter', { filter: t(`agents:filter.${opts.filter}`) }), color: 'magenta' }]);
  return pieces;
}

/** headerPieces with the selection's position, packed to the width. */
export function packHeader(pieces: readonly Line[], opts: Pick<HeaderOptions, 'selected' | 'count' | 'width'>): Line[] {
  const position: Line[] = opts.count > 0 ? [[{ text: `${opts.selected + 1}/${opts.count}`, dim: true }]] : [];
  return packLines([...pieces, ...position], opts.width, SEP);
}

/** The banner while the guard is tripped: which threshold, its limit, the measured value,
 * what it did, and how to answer (space on the root resumes, x kills). */
export function runawayLines(controls: Controls, rootLabel: string | undefined, width: number): Line[] {
  const r = controls.runaway;
  if (!r.tripped) return [];
  const action = r.action ? t(`agents:runaway.action.${r.action as RunawayAction}`, { defaultValue: r.action }) : '';
  const text = t('agents:runaway.banner', {
    threshold: r.threshold ?? '?',
    limit: r.limit ?? '?',
    measured: r.measured ?? '?',
    action,
    root: rootLabel ?? r.rootRunId?.slice(0, 8) ?? '?',
  });
  return wrapSeg(`⚠ ${text}`, width, { color: 'red', bold: true });
}

export type HintMode = 'list' | 'ask' | 'merge' | 'review' | 'transcript' | 'steer' | 'confirm';

/** Each hint: the commands whose keys it shows (from the key table), then what they do. */
const HINTS: Record<HintMode, [KeyUnder<'agents:hints.'>, KeyCommand[]][]> = {
  list: [
    ['select', ['agents.up', 'agents.down']],
    ['pauseResume', ['agents.pause']],
    ['kill', ['agents.kill']],
    ['killAll', ['agents.kill_all']],
    ['spawnPause', ['agents.spawn_pause']],
    ['steer', ['agents.steer']],
    ['open', ['agents.open']],
    ['filter', ['agents.filter']],
    ['close', ['agents.close']],
  ],
  // The selected row's run waits for an answer: Enter answers it instead of opening it.
  ask: [
    ['select', ['agents.up', 'agents.down']],
    ['answer', ['agents.open']],
    ['pauseResume', ['agents.pause']],
    ['kill', ['agents.kill']],
    ['killAll', ['agents.kill_all']],
    ['spawnPause', ['agents.spawn_pause']],
    ['steer', ['agents.steer']],
    ['filter', ['agents.filter']],
    ['close', ['agents.close']],
  ],
  // The selected row's worktree entry waits in the merge queue (issue #23).
  merge: [
    ['select', ['agents.up', 'agents.down']],
    ['mergeApply', ['agents.merge_apply']],
    ['mergeSkip', ['agents.merge_skip']],
    ['mergeKeep', ['agents.merge_keep']],
    ['mergeRerun', ['agents.merge_rerun']],
    ['mergeView', ['agents.merge_view']],
    ['open', ['agents.open']],
    ['close', ['agents.close']],
  ],
  // The review of that entry: its diff and conflict check, with the same merge keys.
  review: [
    ['scroll', ['agents.up', 'agents.down']],
    ['mergeApply', ['agents.merge_apply']],
    ['mergeSkip', ['agents.merge_skip']],
    ['mergeKeep', ['agents.merge_keep']],
    ['mergeRerun', ['agents.merge_rerun']],
    ['back', ['agents.close']],
  ],
  transcript: [
    ['scroll', ['agents.up', 'agents.down']],
    ['ends', ['agents.first', 'agents.last']],
    ['back', ['agents.close']],
  ],
  steer: [
    ['send', ['chat.send']],
    ['cancel', ['chat.interrupt']],
  ],
  confirm: [
    ['confirm', ['agents.confirm']],
    ['cancelAny', []],
  ],
};

export function hintLines(mode: HintMode, width: number, keys: KeyTable = defaultKeyTable()): Line[] {
  return packLines(
    HINTS[mode].map(([k, commands]) => [{ text: t(`agents:hints.${k}`, { keys: keys.labels(commands) }).trim(), dim: true }]),
    width,
    SEP,
  );
}
