// /help at real widths: descriptions share one column and wrap under it; a usage too long
// for that column (/subagents) gets lines of its own instead of running into its text.
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { agentsCommands, agentsKeyBindings } from '../../src/ui/agents/register.js';
import { twoColumns } from '../../src/ui/commands/help.js';
import { viewerCommands, viewerKeyBindings } from '../../src/ui/viewer/register.js';
import { mount, waitFor } from './harness.js';
import { resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

const opts = { archiveAfterMinutes: 10 };

/** /help in ink-testing-library's 100-column terminal. */
async function help(): Promise<string[]> {
  const app = await mount({
    props: {
      commands: [...viewerCommands(), ...agentsCommands(opts)],
      keyBindings: [...viewerKeyBindings(), ...agentsKeyBindings(opts)],
    },
  });
  await app.submit('/help');
  await waitFor(() => expect(app.frame()).toContain('Ctrl+T'));
  return app.frame().split('\n');
}

describe('/help layout', () => {
  it('two columns: a long usage on lines of its own, its description below in the column', () => {
    const rows = twoColumns(
      [
        ['/help', 'list commands'],
        ['/subagents [list | kill <id|#|all> | log <id|#> [limit] | info <id|#>]', 'list or kill child agents'],
      ],
      40,
    );
    expect(rows).toEqual([
      '  /help  list commands',
      '  /subagents [list | kill <id|#|all> |',
      '    log <id|#> [limit] | info <id|#>]',
      '         list or kill child agents',
    ]);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(40);
  });

  it('descriptions wrap under their own column', () => {
    expect(twoColumns([['/x', 'one two three four five six']], 20)).toEqual(['  /x  one two three', '      four five six']);
  });

  it.each(['en', 'es'] as const)('in the app the /subagents usage never shares a line with its description (%s)', async (lang) => {
    setLanguage(lang);
    const lines = await help();
    const summary = lang === 'en' ? 'list, inspect, message' : 'lista';
    const usageEnd = lines.findIndex((l) => l.includes('export [path]]'));
    expect(usageEnd).toBeGreaterThan(0);
    expect(lines[usageEnd]).not.toContain(summary);
    expect(lines[usageEnd + 1]).toMatch(new RegExp(`^\\s{10,}${summary}`));
    // The viewer's search keys read as keys, not "//n/N".
    expect(lines.join('\n')).toContain('/, n, N');
    expect(lines.join('\n')).not.toContain('//n/N');
  });
});
