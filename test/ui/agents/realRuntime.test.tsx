// The pane and /subagents against the real runtime and the loopback model: kills and pauses
// reach real children, the tree updates live, and the turn goes on.
import { describe, expect, it } from 'vitest';
import { CommandRegistry, runSlashLine, type CommandContext } from '../../../src/ui/commands/registry.js';
import { agentsCommands } from '../../../src/ui/agents/register.js';
import { baseToml, calls, childRuns, heldReply, makeFixture, text, until } from '../../helpers/runtimeFixture.js';
import { toolResults } from '../../support/wireBody.js';
import { jobs, spawnOne, spawnScript } from '../../unit/support/spawnScript.js';
import { mountPane, waitFor } from './fixtures.js';
import { resetUiBetweenTests } from '../lifecycle.js';

// The fixtures clean themselves up when their test ends.
resetUiBetweenTests();

describe('against the real runtime', () => {
  it('x in the pane kills a real child; /subagents kill all kills the rest; the turn finishes', async () => {
    const fx = await makeFixture({
      toml: (u) => baseToml(u, '[runtime_profiles.default]\nparallel_tools = true\n'),
      // Children stream slowly enough to be killed mid-answer.
      respond: spawnScript({ prompts: jobs(3, 1), child: () => text('never seen', 10_000) }),
    });
    const runtime = fx.runtime;
    const turn = runtime.startTurn('fan out');
    const children = () => childRuns(fx, 'subagent');
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

  it('Space pauses a real child mid model call: pausing… until its loop holds, then paused; Space again resumes it', async () => {
    let workerCalls = 0;
    const worker = heldReply();
    const fx = await makeFixture({
      // The worker's first model call is held until the test has paused it, then asks for a tool.
      respond: spawnOne('worker', (_, { body }) => {
        workerCalls++;
        if (toolResults(body).length > 0) return text('worker finished');
        return worker.held.then(() => calls({ id: 'l', name: 'list_files', args: {} }));
      }),
      runtime: { interactive: true },
    });
    const runtime = fx.runtime;
    const turn = runtime.startTurn('go');
    const child = () => childRuns(fx, 'subagent')[0];
    await until(() => workerCalls === 1 && child()?.status === 'running');

    const pane = await mountPane(runtime, { width: 120, maxRows: 16 });
    const row = () => pane.lines().find((l) => l.includes('main#1 subagent')) ?? '';
    await waitFor(() => expect(row()).toContain('● running'));
    await pane.press('j');
    await pane.press(' ');
    await waitFor(() => expect(pane.frame()).toContain('pausing main#1…'));
    expect(row()).toContain('‖ pausing…');
    worker.release();
    await waitFor(() => expect(row()).toContain('‖ paused'), 5000);
    // It held at the boundary before its tool call.
    expect(child().toolsCompleted).toBe(0);
    await pane.press(' ');
    await waitFor(() => expect(pane.frame()).toContain('resumed main#1'));
    await turn;
    expect(child().status).toBe('completed');
    await waitFor(() => expect(row()).toContain('✓ completed'));
  });
});
