// /agents at 120 columns with ⚠ flagged children (issue #20): the column chooser counts the
// flags, so a flagged row keeps its task text and its metrics in the shared columns instead
// of the task cut to "…" and the metrics pushed off the row.
import { describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { setLanguage } from '../../../src/i18n/index.js';
import { addTestRun, mountPane, FakeRuntime } from './fixtures.js';
import { resetUiBetweenTests } from '../lifecycle.js';

resetUiBetweenTests();

const usage = { iterations: 2, toolsCompleted: 3, tokensIn: 900, tokensOut: 300, costUsd: 0.02 };

/** A running turn with a running child, a child that answered without tools (⚠ no tools
 * used) and one that also claims changes nobody saw (two flags). */
function tree() {
  const rt = new FakeRuntime();
  const root = addTestRun(rt, { task: 'plan the release', patch: usage });
  addTestRun(rt, { parent: root.id, alias: 'researcher', kind: 'delegate', task: 'dig into the cache layer', patch: usage });
  addTestRun(rt, { parent: root.id, alias: 'reviewer', kind: 'delegate', status: 'completed', task: 'check the release notes for typos' });
  addTestRun(rt, {
    parent: root.id,
    alias: 'researcher',
    kind: 'delegate',
    status: 'completed',
    task: 'review the plan for the parser rewrite',
    patch: { result: 'I updated the parser and fixed the tests' },
  });
  return rt;
}

const lineWith = (lines: string[], text: string) => {
  const line = lines.find((l) => l.includes(text));
  if (line === undefined) throw new Error(`no line with "${text}" in:\n${lines.join('\n')}`);
  return line;
};

describe('/agents flagged rows at 120 columns', () => {
  it('a flagged child keeps its task text and the metric columns', async () => {
    const pane = await mountPane(tree(), { width: 120, maxRows: 20 });
    const lines = pane.lines();
    const root = lineWith(lines, 'main turn');
    const oneFlag = lineWith(lines, 'reviewer#2 delegate');
    const twoFlags = lineWith(lines, 'researcher#3 delegate');
    // The flag in words, then the task's own words, not a lone "…".
    expect(oneFlag).toMatch(/⚠ no tools used {2}check the r/);
    // Two flags: the first in words and how many more, and the task still readable.
    expect(twoFlags).toMatch(/⚠ no tools used \+1 {2}review t/);
    for (const line of [oneFlag, twoFlags]) {
      expect(line.length).toBeLessThanOrEqual(120);
      expect(line).not.toMatch(/ {2}…/);
      // The metrics are all there, in the root row's columns.
      expect(line).toMatch(/0 it\s+0 tools\s+0 tok\s*$/);
      expect(line.search(/\d+ it /)).toBe(root.search(/\d+ it /));
    }
    expect(root).toMatch(/plan the release\s+\S+\s+2 it\s+3 tools\s+1\.2k tok/);
  });

  it('in Spanish too, and narrower the flags shorten to their mark and count', async () => {
    setLanguage('es');
    const es = await mountPane(tree(), { width: 120, maxRows: 20 });
    expect(lineWith(es.lines(), 'reviewer#2')).toMatch(/⚠ no usó herramientas {2}check the/);
    cleanup();
    setLanguage('en');
    const narrow = await mountPane(tree(), { width: 90, maxRows: 20 });
    const row = lineWith(narrow.lines(), 'researcher#3 delegate');
    expect(row).toMatch(/⚠2 {2}review the pl/);
    expect(row.length).toBeLessThanOrEqual(90);
  });
});
