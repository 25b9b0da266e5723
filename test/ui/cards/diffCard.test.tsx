// A file change's card: collapsed it reads `write_file src/a.ts +N −M` (chat card and the
// viewer's line), expanded the diff with old/new line numbers; a call without a diff
// display keeps its argument summary.
import React from 'react';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { fileDiff } from '../../../src/text/diff.js';
import { genericCollapsed, genericExpanded } from '../../../src/ui/cards/genericLines.js';
import { ToolCard } from '../../../src/ui/components/ToolCard.js';
import { plain } from '../harness.js';
import { bareToolItem, text } from './fixtures.js';

const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
const after = before.replace('line 10\n', 'line ten\nline ten and a half\n').replace('line 2\n', '');
const display = fileDiff('src/a.ts', before, after);
const item = bareToolItem('write_file', { path: 'src/a.ts', content: after }, { result: "Wrote 10 bytes to 'src/a.ts'.", display });

describe('the diff card', () => {
  it('collapsed: path and +added −removed, in the chat card and the viewer line', () => {
    const r = render(<ToolCard item={item} width={80} frame={0} />);
    expect(plain(r.lastFrame())).toContain('write_file src/a.ts +2 \u22122');
    r.unmount();
    expect(text(genericCollapsed(item, 80, 0))).toContain('write_file src/a.ts +2 \u22122');
  });

  it('expanded: every hunk with its old and new line numbers', () => {
    const out = text(genericExpanded(item, 80, 0));
    expect(out).toContain('Diff');
    expect(out).toContain('@@ -1,5 +1,4 @@');
    expect(out).toMatch(/ 2 {4}-line 2\n/);
    expect(out).toMatch(/10 {4}-line 10\n/);
    expect(out).toMatch(/11 11 {2}line 11/);
    expect(out).toMatch(/ {3}9 \+line ten\n/);
    expect(out).toMatch(/ {3}10 \+line ten and a half/);
  });

  it('a new file says so; other tools keep their argument summary', () => {
    const created = bareToolItem(
      'write_file',
      { path: 'n.txt', content: 'a\n' },
      { result: 'ok', display: fileDiff('n.txt', undefined, 'a\n') },
    );
    expect(text(genericCollapsed(created, 80, 0))).toContain('write_file n.txt +1 \u22120 (new file)');
    const shell = bareToolItem('shell', { command: 'ls -la' }, { result: 'x', display: { kind: 'shell', command: 'ls -la', exitCode: 0 } });
    expect(text(genericCollapsed(shell, 80, 0))).toContain('shell ls -la');
  });
});
