// The viewer's navigation state: a stack of views (the session, then each child transcript
// opened with `o`), each with its selection, viewport and expanded cards, kept by entry key
// so they survive the list changing under them while the session runs.
import { t } from '../../i18n/index.js';
import type { TranscriptItem } from '../../model/transcript.js';
import { runName } from '../../model/run.js';
import { entriesText } from '../cards/copy.js';
import type { ChildSource } from './childSource.js';
import type { ViewEntry } from './entries.js';
import * as nav from './viewport.js';

export interface ViewState {
  source?: ChildSource;
  names?: string[];
  /** Set once the view has been placed (the session view opens at its end, a child
   * transcript at its start). */
  placed: boolean;
  sel: number;
  selKey?: string;
  vp: nav.Viewport;
  topKey?: string;
  expandAll: boolean;
  /** Entries whose state differs from expandAll. */
  toggled: Set<string>;
  /** Showing the end with the last entry selected: new entries keep it there. */
  follow: boolean;
}

export interface UiState {
  stack: ViewState[];
  searching: boolean;
  draft: string;
  query: string;
}

export function newView(source?: ChildSource, names?: string[]): ViewState {
  return { source, names, placed: false, sel: 0, vp: { top: 0, offset: 0 }, expandAll: false, toggled: new Set(), follow: !source };
}

export function isExpanded(v: ViewState, key: string): boolean {
  return v.expandAll !== v.toggled.has(key);
}

/** Selection and viewport follow their entries by key when the list changes under them. */
export function settle(v: ViewState, entries: readonly ViewEntry[], shape: nav.ListShape): void {
  if (entries.length === 0) {
    v.sel = 0;
    v.vp = { top: 0, offset: 0 };
    return;
  }
  let n: nav.Nav;
  if (!v.placed) {
    n = v.source ? nav.home() : nav.end(shape);
    v.placed = true;
  } else if (v.follow) {
    n = nav.end(shape);
  } else {
    let sel = v.sel;
    if (entries[sel]?.key !== v.selKey) {
      const found = v.selKey === undefined ? -1 : entries.findIndex((e) => e.key === v.selKey);
      sel = found >= 0 ? found : Math.min(sel, entries.length - 1);
    }
    let top = v.vp.top;
    if (entries[top]?.key !== v.topKey) {
      const found = v.topKey === undefined ? -1 : entries.findIndex((e) => e.key === v.topKey);
      top = found >= 0 ? found : Math.min(top, entries.length - 1);
    }
    n = nav.reveal({ sel, vp: nav.clampViewport({ top, offset: v.vp.offset }, shape) }, shape, 'auto');
  }
  apply(v, n, entries, shape);
}

export function apply(v: ViewState, n: nav.Nav, entries: readonly ViewEntry[], shape: nav.ListShape): void {
  v.sel = n.sel;
  v.vp = n.vp;
  v.selKey = entries[n.sel]?.key;
  v.topKey = entries[n.vp.top]?.key;
  v.follow = !v.source && entries.length > 0 && n.sel === entries.length - 1 && nav.atEnd(n.vp, shape);
}

/** A child heading stands for that child's whole transcript: the items under it. */
export function entryItems(entry: ViewEntry, entries: readonly ViewEntry[], index: number): TranscriptItem[] {
  if (entry.kind === 'item') return [entry.item];
  const out: TranscriptItem[] = [];
  for (let i = index + 1; i < entries.length; i++) {
    const e = entries[i];
    if (e.kind === 'child') break;
    out.push(e.item);
  }
  return out;
}

export function childText(entry: Extract<ViewEntry, { kind: 'child' }>, items: TranscriptItem[]): string {
  const { run } = entry;
  const head = [
    `${runName(run)} · ${run.id} · ${t(`transcript:status.${run.status}`)}${entry.recorded ? ` · ${t('transcript:card.restored')}` : ''}`,
    run.task,
  ].join('\n');
  return items.length > 0 ? `${head}\n\n${entriesText(items)}` : head;
}

/** Expands a collapsed entry, or collapses an expanded one. */
export function toggle(v: ViewState, key: string): void {
  if (v.toggled.has(key)) v.toggled.delete(key);
  else v.toggled.add(key);
}
