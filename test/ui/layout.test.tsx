import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { loadCatalogs, setLanguage } from '../../src/i18n/index.js';
import { CLEAR_SCREEN } from '../../src/ui/hooks/useChatScreen.js';
import { displayWidth } from '../../src/ui/text/width.js';
import { ENTER, mount, mountSized, plain, waitFor } from './harness.js';

beforeEach(() => setLanguage('en'));
const mounted: Array<{ unmount(): void }> = [];
afterEach(() => {
  for (const m of mounted.splice(0)) m.unmount();
  cleanup();
  setLanguage('en');
});

const PARAGRAPH = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

function widest(text: string, marker: string): number {
  const lines = text.split('\n').filter((l) => l.includes('word'));
  expect(lines.length, marker).toBeGreaterThan(0);
  return Math.max(...lines.map((l) => displayWidth(l.trimEnd())));
}

describe('layout', () => {
  it('wraps finished replies to the terminal width and re-wraps them on resize', async () => {
    const app = await mountSized(40, 20);
    mounted.push(app);
    await app.press('wrap please');
    await app.press(ENTER);
    const id = app.runtime.beginAssistant(PARAGRAPH);
    app.runtime.finishAssistant(id);
    app.runtime.endTurn();
    await waitFor(() => expect(app.stdout.last()).toContain('word39'));
    expect(widest(app.stdout.last(), 'at 40')).toBeLessThanOrEqual(40);

    app.stdout.resize(70, 20);
    await waitFor(() => expect(app.stdout.writes.some((w) => w.startsWith(CLEAR_SCREEN))).toBe(true));
    await waitFor(() => {
      const after = plain(app.stdout.writes[app.stdout.writes.length - 1]);
      // The reprint comes after the copy printed at 40 columns.
      const reprint = after.slice(after.lastIndexOf('wrap please'));
      expect(widest(reprint, 'at 70')).toBeGreaterThan(40);
      expect(widest(reprint, 'at 70')).toBeLessThanOrEqual(70);
    });
  });

  it('keeps the live region shorter than a small terminal while streaming', async () => {
    for (const rows of [8, 12, 30]) {
      const app = await mountSized(50, rows);
      mounted.push(app);
      await app.press('go');
      await app.press(ENTER);
      const id = app.runtime.beginAssistant(Array.from({ length: 120 }, (_, i) => `streamed line ${i}`).join('\n'));
      app.runtime.addTool('shell', { command: 'sleep 1' }, 'running');
      expect(id).toBeTruthy();
      await waitFor(() => expect(app.stdout.last()).toContain('streamed line 119'));
      const frame = app.stdout.last();
      const live = frame.slice(frame.indexOf('› go\n') + '› go\n'.length);
      expect(live.split('\n').length, `rows=${rows}`).toBeLessThan(rows);
    }
  });

  it('gives a pane the input area (slot used by later features)', async () => {
    const { Text } = await import('ink');
    const React = await import('react');
    const app = await mount({
      props: {
        commands: [
          {
            name: 'pane',
            summary: 'ui:commands.help.summary',
            run(_args, ctx) {
              ctx.openPane({ id: 'demo', render: (p) => React.createElement(Text, null, `pane ${p.width}x${p.maxRows}`) });
            },
          },
        ],
      },
    });
    await app.submit('/pane');
    await waitFor(() => expect(app.frame()).toMatch(/pane 100x\d+/));
    expect(app.frame()).not.toContain('Type a message');
  });

  it('renders no English when the language is Spanish', async () => {
    const catalogs = loadCatalogs();
    const fragments: string[] = [];
    const walk = (en: Record<string, unknown>, es: Record<string, unknown>) => {
      for (const [k, v] of Object.entries(en)) {
        if (typeof v === 'object' && v) walk(v as Record<string, unknown>, es[k] as Record<string, unknown>);
        else if (typeof v === 'string' && v !== es[k]) {
          for (const part of v.split(/\{\{[^}]+\}\}/)) if (part.trim().length >= 8) fragments.push(part.trim());
        }
      }
    };
    walk(catalogs.en.ui, catalogs.es.ui);
    expect(fragments.length).toBeGreaterThan(20);

    setLanguage('es');
    const app = await mount();
    await app.submit('/help');
    await app.submit('hola');
    const id = app.runtime.beginAssistant('respuesta');
    app.runtime.addTool('shell', { command: 'ls' }, 'denied');
    app.runtime.addTool('shell', { command: 'ls' }, 'running');
    await app.submit('otra\nlínea');
    await waitFor(() => expect(app.frame()).toContain('en cola: otra (+1 línea)'));
    const busy = app.frame();
    app.runtime.requestApproval('shell', { command: 'ls' });
    await waitFor(() => expect(app.frame()).toContain('Se necesita aprobación'));
    const approval = app.frame();
    app.runtime.finishAssistant(id, true);
    app.runtime.endTurn();
    await waitFor(() => expect(app.frame()).toContain('interrumpido'));
    const done = app.frame();
    expect(done).toContain('Comandos:');
    for (const frame of [busy, approval, done]) {
      for (const fragment of fragments) expect(frame, fragment).not.toContain(fragment);
    }
  });
});
