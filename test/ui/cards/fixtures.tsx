// Shared builders for the card and viewer tests: tool items in the shapes the runtime
// records, child runs bound (or not) to them, and plain text of laid-out lines.
import React from 'react';
import { render } from 'ink-testing-library';
import { legacyDisplay } from '../../../src/persistence/legacyDisplay.js';
import type { Run, ToolCallStatus, ToolTranscriptItem } from '../../../src/runtime/types.js';
import { lineText, type Line } from '../../../src/ui/cards/lines.js';
import { LinesView } from '../../../src/ui/components/LineView.js';
import { makeRun } from '../../helpers/runs.js';
import { plain } from '../harness.js';

let seq = 0;

/** A tool item as recorded. Given only a result text (the delegate and spawn formats the
 * tests build with the tools' own string functions), it carries the display that text
 * stands for, as the tool gives it live and a restored old session gets it. */
export function toolItem(name: string, args: unknown, patch: Partial<ToolTranscriptItem> = {}): ToolTranscriptItem {
  const item = bareToolItem(name, args, patch);
  if ('display' in patch || (item.status !== 'ok' && item.status !== 'error')) return item;
  const display = legacyDisplay(item);
  return display ? { ...item, display } : item;
}

/** A tool item with exactly the fields given: no display unless the patch has one. */
export function bareToolItem(name: string, args: unknown, patch: Partial<ToolTranscriptItem> = {}): ToolTranscriptItem {
  seq++;
  return {
    id: `item-${seq}`,
    kind: 'tool',
    runId: 'root-1',
    callId: `call-${seq}`,
    name,
    args,
    rawArgs: JSON.stringify(args) ?? '',
    status: 'ok',
    startedAt: Date.parse('2025-03-01T10:00:00Z'),
    endedAt: Date.parse('2025-03-01T10:00:04Z'),
    ...patch,
  };
}

export function childRun(id: string, item: ToolTranscriptItem, patch: Partial<Run> = {}): Run {
  return makeRun(id, {
    kind: 'subagent',
    alias: 'main',
    depth: 1,
    parentRunId: item.runId,
    parentToolCallId: item.callId,
    rootRunId: item.runId,
    status: 'running',
    startedAt: Date.now() - 3000,
    task: 'child task',
    ...patch,
  });
}

export function text(lines: readonly Line[]): string {
  return lines.map(lineText).join('\n');
}

/** What Ink draws for the lines, ANSI removed. */
export function drawn(lines: readonly Line[], width = 100): string {
  const r = render(<LinesView lines={lines} width={width} />);
  const out = plain(r.lastFrame());
  r.unmount();
  return out;
}

export const statuses: ToolCallStatus[] = ['ok', 'error', 'denied', 'skipped'];
