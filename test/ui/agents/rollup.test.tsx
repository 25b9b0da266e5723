// Cost roll-up per subtree: the /agents pane's parent rows, /subagents info and the card.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { subtreeUsage } from '../../../src/model/usage.js';
import { buildTree } from '../../../src/ui/agents/tree.js';
import { chooseColumns, chooseMetrics, formatRow, type MetricId } from '../../../src/ui/agents/rowFormat.js';
import { formatInfo } from '../../../src/ui/agents/subagentsFormat.js';
import { collapsedLines } from '../../../src/ui/cards/cardLines.js';
import { boundRuns, callUsage } from '../../../src/ui/cards/live.js';
import { cardModel } from '../../../src/ui/cards/model.js';
import type { ToolTranscriptItem } from '../../../src/model/transcript.js';
import { addTestRun, FakeRuntime } from './fixtures.js';

beforeAll(() => setLanguage('en'));

const usage = (tokensIn: number, tokensOut: number, costUsd: number) => ({ patch: { tokensIn, tokensOut, costUsd } });

/** A run's row as the pane formats it (no ask mark), as plain text. */
function rowText(view: ReturnType<typeof buildTree>, id: string, width: number, posWidth: number, metrics: MetricId[], sumWidth?: number) {
  return lineText(
    formatRow(
      view.rows.find((r) => r.run.id === id)!,
      width,
      posWidth,
      metrics,
      Date.now(),
      false,
      sumWidth,
    ),
  );
}

/** root (10/5, $0.001) → a (100/50, $0.01) → a1 (1000/500, $0.1), a2 (2000/0, $0.2); root → b (7/3, $0.003). */
function tree() {
  const rt = new FakeRuntime();
  const root = addTestRun(rt, { alias: 'main', ...usage(10, 5, 0.001) });
  const a = addTestRun(rt, {
    parent: root.id,
    alias: 'lead',
    kind: 'delegate',
    patch: { ...usage(100, 50, 0.01).patch, parentToolCallId: 'call_a', limits: { max_child_tokens: 5000 } },
  });
  const a1 = addTestRun(rt, { parent: a.id, alias: 'lead', ...usage(1000, 500, 0.1) });
  const a2 = addTestRun(rt, { parent: a.id, alias: 'lead', ...usage(2000, 0, 0.2) });
  const b = addTestRun(rt, { parent: root.id, alias: 'solo', kind: 'delegate', ...usage(7, 3, 0.003) });
  return { rt, root, a, a1, a2, b };
}

const lineText = (segs: { text: string }[]) => segs.map((s) => s.text).join('');

describe('subtree roll-up', () => {
  it('sums each run with everything under it', () => {
    const { rt, root, a, a1, b } = tree();
    const s = rt.store.getState();
    const sums = subtreeUsage(s.runs, s.runOrder);
    expect(sums.get(a.id)).toMatchObject({ tokensIn: 3100, tokensOut: 550, descendants: 2 });
    expect(sums.get(a.id)!.costUsd).toBeCloseTo(0.31, 10);
    expect(sums.get(root.id)).toMatchObject({ tokensIn: 3117, tokensOut: 558, descendants: 4 });
    expect(sums.get(root.id)!.costUsd).toBeCloseTo(0.314, 10);
    expect(sums.get(a1.id)).toEqual({ tokensIn: 1000, tokensOut: 500, costUsd: 0.1, descendants: 0 });
    expect(sums.get(b.id)!.descendants).toBe(0);
  });

  it('the /agents pane shows the subtree sum on parent rows only', () => {
    const { rt, a, a1, b } = tree();
    const view = buildTree(rt.store.getState(), 60, 'all');
    const width = 160;
    const metrics = chooseMetrics(view.rows, width, 2);
    const text = (id: string) => rowText(view, id, width, 2, metrics);
    expect(text(a.id)).toContain('Σ3.6k $0.3100');
    expect(text(a1.id)).not.toContain('Σ');
    expect(text(b.id)).not.toContain('Σ');
    // the per-run cost stays beside it
    expect(text(a.id)).toMatch(/\$0\.0100 .*Σ3\.6k \$0\.3100$/);
    // on a narrow terminal the task keeps its room and the sum goes first
    const narrow = chooseMetrics(view.rows, 70, 2);
    expect(rowText(view, a.id, 70, 2, narrow)).not.toContain('Σ');
  });

  it('root, parent and child rows keep their elapsed / iter / tools columns at one place', () => {
    const { rt, root, a, a1, b } = tree();
    const view = buildTree(rt.store.getState(), 60, 'all');
    const width = 160;
    const { metrics, sumWidth } = chooseColumns(view.rows, width, 1);
    const text = (id: string) => rowText(view, id, width, 1, metrics, sumWidth);
    const column = (id: string) => text(id).search(/\d+ it /);
    expect(column(root.id)).toBeGreaterThan(0);
    for (const id of [a.id, a1.id, b.id]) expect(column(id)).toBe(column(root.id));
    // The sums still end the parent rows, right-aligned in their column.
    expect(text(root.id)).toMatch(/Σ3\.7k \$0\.3140$/);
    expect(text(a.id)).toMatch(/ Σ3\.6k \$0\.3100$/);
    expect(text(a1.id)).not.toContain('Σ');
    for (const id of [root.id, a.id, a1.id, b.id]) expect(text(id).length).toBe(width);
    // Narrower: one decision for every row, so whatever shows stays in one column.
    for (const w of [70, 90, 110, 120]) {
      const cols = chooseColumns(view.rows, w, 1);
      const at = (id: string) => rowText(view, id, w, 1, cols.metrics, cols.sumWidth).search(/\d+s /);
      for (const id of [a.id, a1.id, b.id]) expect(at(id), `${w}`).toBe(at(root.id));
    }
  });

  it('/subagents info shows the subtree and the limits in force', () => {
    const { rt, a, b } = tree();
    const info = formatInfo(rt.store.getState(), rt.store.getState().runs.get(a.id)!);
    expect(info).toContain('subtree (with children): 3100 in / 550 out · $0.3100 · 2 runs below');
    expect(info).toContain('child limits: max_child_tokens = 5000');
    const other = formatInfo(rt.store.getState(), rt.store.getState().runs.get(b.id)!);
    expect(other).toContain('subtree (with children): 7 in / 3 out · $0.0030 · 0 runs below');
    expect(other).toContain('child limits: none');
  });

  it('the card shows the cost of its child and the sum of the subtree under it', () => {
    const { rt, root, a } = tree();
    const item: ToolTranscriptItem = {
      id: 'i1',
      kind: 'tool',
      runId: root.id,
      callId: 'call_a',
      name: 'delegate',
      args: { agent: 'lead', prompt: 'lead the work' },
      rawArgs: '{"agent":"lead","prompt":"lead the work"}',
      status: 'running',
      startedAt: Date.now(),
    };
    const s = rt.store.getState();
    const runs = boundRuns(s, item);
    expect(runs.map((r) => r.id)).toEqual([a.id]);
    const lines = collapsedLines({ item, model: cardModel(item)!, runs, usage: callUsage(s, runs), width: 160, frame: 0, now: Date.now() });
    const status = lineText(lines[1]);
    expect(status).toContain('$0.0100');
    expect(status).toContain('Σ3.6k $0.3100');
  });
});
