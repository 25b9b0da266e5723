// The pane and /subagents against the real runtime and the loopback model: kills reach
// real children, the tree updates live, and the turn goes on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { setLanguage } from '../../../src/i18n/index.js';
import { CommandRegistry, runSlashLine, type CommandContext } from '../../../src/ui/commands/registry.js';
import { agentsCommands } from '../../../src/ui/agents/register.js';
import { baseToml, calls, firstUserText, makeFixture, text, toolMessages, type Fixture } from '../../helpers/runtimeFixture.js';
import { mountPane, waitFor } from './fixtures.js';

let fx: Fixture | undefined;
beforeEach(() => setLanguage('en'));
afterEach(async () => {
  cleanup();
  await fx?.cleanup();
  fx = undefined;
});

describe('against the real runtime', () => {
  it('x in the pane kills a real child; /subagents kill all kills the rest; the turn finishes', async () => {
    fx = await makeFixture({
      toml: (u) => baseToml(u, '[runtime_profiles.default]\nparallel_tools = true\n'),
      respond: ({ body }) => {
        // Children stream slowly enough to be killed mid-answer.
        if (firstUserText(body).startsWith('job')) return text('never seen', 10_000);
        if (toolMessages(body).length) return text('root done');
        return calls(...[1, 2, 3].map((i) => ({ id: `j${i}`, name: 'spawn_subagent', args: { prompt: `job ${i}` } })));
      },
    });
    const runtime = fx.runtime;
    const turn = runtime.startTurn('fan out');
    const children = () =>
      runtime.store
        .getState()
        .runs.values()
        .filter((r) => r.kind === 'subagent');
    await waitFor(() => expect(children().filter((r) => r.status === 'running')).toHaveLength(3), 5000);

    const pane = await mountPane(runtime, { width: 120, maxRows: 16 });
    await waitFor(() => expect(pane.frame()).toContain('3 running'));
    await pane.press('j');
    await pane.press('x');
    await waitFor(() => expect(pane.frame()).toContain('killed main#1'));
    await waitFor(() => expect(pane.frame()).toMatch(/× killed\s+main#1 subagent/));
    expect(children().find((r) => r.task === 'job 1')?.status).toBe('killed');

    const printed: string[] = [];
    const ctx = {
      runtime,
      print: (t: string) => printed.push(t),
      openPane() {},
      closePane() {},
      isTurnRunning: () => true,
    } as unknown as CommandContext;
    await runSlashLine('/subagents kill all', new CommandRegistry(agentsCommands({ archiveAfterMinutes: 60 })), ctx);
    expect(printed).toEqual(['Killed 2 live subagents (descendants included).']);
    await turn;
    expect(children().every((r) => r.status === 'killed')).toBe(true);
    expect(runtime.store.getState().runs.get(runtime.store.getState().runOrder[0])!.status).toBe('completed');
    await waitFor(() => expect(pane.frame()).toContain('3 finished'));
  });
});
