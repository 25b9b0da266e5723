// The pane /diff opens: the files arbor's tools changed in this session (path, +/−, the
// runs that changed them, when) and, on Enter, one file's diff against its content before
// the session's first change. ↑/↓ choose, PgUp/PgDn scroll the diff, Esc goes back.
import { Box } from 'ink';
import React, { useEffect, useRef, useState } from 'react';
import { t } from '../../i18n/index.js';
import type { SessionChange, SessionFileDiff } from '../../model/sessionChanges.js';
import { neutralize } from '../../text/untrusted.js';
import { diffBodyLines } from '../cards/diffLines.js';
import { row, wrapBlock } from '../cards/lines.js';
import type { Line } from '../text/segments.js';
import { LineView } from '../components/LineView.js';
import { usePaneInput } from '../panes/paneKeys.js';
import type { Pane, PaneProps } from '../panes/types.js';

export const DIFF_PANE_ID = 'diff';

const clock = (ms: number | undefined) => {
  if (ms === undefined) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
};

/** One list row: `path  +12 −3  researcher#3, main  14:02:11`. */
export function changeRow(c: SessionChange, width: number): Line {
  return row(
    width,
    { text: neutralize(c.path), bold: true },
    { text: '  ' },
    { text: `+${c.added}`, color: 'green' },
    { text: ' ' },
    { text: `−${c.removed}`, color: 'red' },
    c.created && { text: ` (${t('ledger:change.created')})`, dim: true },
    c.deleted && { text: ` (${t('ledger:change.deleted')})`, dim: true },
    { text: `  ${neutralize(c.runs.join(', '))}`, color: 'cyan' },
    c.lastAt !== undefined && { text: `  ${clock(c.lastAt)}`, dim: true },
  );
}

/** The opened file as lines: a heading, then its diff or why there is none. */
export function fileLines(c: SessionChange, d: SessionFileDiff | undefined, width: number): Line[] {
  const head = row(width, { text: neutralize(c.path), bold: true }, { text: `  ${t('ledger:diff.against')}`, dim: true });
  if (!d) return [head, row(width, { text: t('ledger:diff.loading'), dim: true })];
  switch (d.kind) {
    case 'diff':
      return [
        head,
        row(width, { text: `+${d.display.added}`, color: 'green' }, { text: ' ' }, { text: `−${d.display.removed}`, color: 'red' }),
        ...diffBodyLines(d.display, width, 0),
      ];
    case 'deleted':
      return [
        head,
        ...wrapBlock(t('ledger:diff.deleted'), width, 0, { color: 'yellow' }),
        ...(d.display ? diffBodyLines(d.display, width, 0) : []),
      ];
    case 'unchanged':
      return [head, ...wrapBlock(t('ledger:diff.unchanged'), width, 0, { dim: true })];
    case 'unreadable':
      return [head, ...wrapBlock(t('ledger:diff.unreadable', { added: d.added, removed: d.removed }), width, 0, { color: 'yellow' })];
    case 'no_base':
      return [
        head,
        ...wrapBlock(t(`ledger:diff.noBase.${d.reason}`, { added: d.added, removed: d.removed }), width, 0, { color: 'yellow' }),
      ];
  }
}

function DiffView({ runtime, width, maxRows, close, changes, open }: PaneProps & { changes: SessionChange[]; open?: number }) {
  // Keys can arrive faster than renders (↓ then Enter in one burst): the selection is read
  // from a ref, never from a render's closure.
  const selectedRef = useRef(open ?? 0);
  const [selected, setSelectedState] = useState(open ?? 0);
  const setSelected = (f: (s: number) => number) => {
    selectedRef.current = f(selectedRef.current);
    setSelectedState(selectedRef.current);
  };
  const openedRef = useRef<number | undefined>(open);
  const [opened, setOpenedState] = useState<number | undefined>(open);
  const setOpened = (v: number | undefined) => {
    openedRef.current = v;
    setOpenedState(v);
  };
  const [diff, setDiff] = useState<SessionFileDiff | undefined>(undefined);
  const [offset, setOffset] = useState(0);
  const rows = Math.max(3, maxRows);
  const body = Math.max(1, rows - 2);

  useEffect(() => {
    if (opened === undefined) return;
    let live = true;
    setDiff(undefined);
    setOffset(0);
    const c = changes[opened];
    void runtime.sessionFileDiff(c).then(
      (d) => live && setDiff(d),
      () => live && setDiff({ kind: 'unreadable', added: c.added, removed: c.removed }),
    );
    return () => {
      live = false;
    };
  }, [opened, changes, runtime]);

  const lines = opened === undefined ? [] : fileLines(changes[opened], diff, width);
  usePaneInput((event) => {
    if (event.kind !== 'key') return;
    const maxOffset = Math.max(0, lines.length - body);
    if (openedRef.current === undefined) {
      if (event.name === 'escape' || event.name === 'q') close();
      else if (event.name === 'up' || event.name === 'k') setSelected((s) => Math.max(0, s - 1));
      else if (event.name === 'down' || event.name === 'j') setSelected((s) => Math.min(changes.length - 1, s + 1));
      else if (event.name === 'return') setOpened(selectedRef.current);
      return;
    }
    if (event.name === 'escape' || event.name === 'q') setOpened(undefined);
    else if (event.name === 'up' || event.name === 'k') setOffset((o) => Math.max(0, o - 1));
    else if (event.name === 'down' || event.name === 'j') setOffset((o) => Math.min(maxOffset, o + 1));
    else if (event.name === 'pageup') setOffset((o) => Math.max(0, o - body));
    else if (event.name === 'pagedown') setOffset((o) => Math.min(maxOffset, o + body));
  });

  if (opened !== undefined) {
    const shown = lines.slice(offset, offset + body);
    return (
      <Box flexDirection="column">
        {shown.map((l, i) => (
          <LineView key={i} line={l} />
        ))}
        <LineView line={row(width, { text: t('ledger:diff.fileHints'), dim: true })} />
      </Box>
    );
  }
  const first = Math.max(0, Math.min(selected - Math.floor(body / 2), changes.length - body));
  const shown = changes.slice(first, first + body);
  return (
    <Box flexDirection="column">
      <LineView line={row(width, { text: t('ledger:diff.title', { count: changes.length }), bold: true })} />
      {shown.map((c, i) => (
        <LineView key={c.path} line={[{ text: first + i === selected ? '▸ ' : '  ' }, ...changeRow(c, width - 2)]} />
      ))}
      <LineView line={row(width, { text: t('ledger:diff.listHints'), dim: true })} />
    </Box>
  );
}

export function diffPane(changes: SessionChange[], open?: number): Pane {
  return { id: DIFF_PANE_ID, render: (props) => <DiffView {...props} changes={changes} open={open} /> };
}
