// The pane header's counts are children; a live root turn says its own state beside them,
// so "0 running" never sits next to a running root row unexplained.
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { addTestRun, mountPane, FakeRuntime } from './fixtures.js';
import { resetUiBetweenTests } from '../lifecycle.js';

resetUiBetweenTests();

describe('/agents header with a running root turn', () => {
  it.each([
    ['en', /turn running · children: 0 running · 0 queued/, /children: 1 running/],
    ['es', /turno en curso · hijos: 0 en curso · 0 en cola/, /hijos: 1 en curso/],
  ] as const)('names the turn and labels the counts as children (%s)', async (lang, alone, withChild) => {
    setLanguage(lang);
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'plan' });
    const pane = await mountPane(rt, { width: 120, maxRows: 20 });
    expect(pane.frame()).toMatch(alone);
    pane.app.unmount();
    addTestRun(rt, { parent: root.id, task: 'step' });
    const again = await mountPane(rt, { width: 120, maxRows: 20 });
    expect(again.frame()).toMatch(withChild);
  });

  it('no live turn: no turn segment', async () => {
    const rt = new FakeRuntime();
    addTestRun(rt, { task: 'plan', status: 'completed' });
    const pane = await mountPane(rt, { width: 120, maxRows: 20 });
    expect(pane.frame()).not.toContain('turn running');
  });
});
