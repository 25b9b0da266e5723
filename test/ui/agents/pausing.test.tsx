// `pausing…` reads as such everywhere a run's status shows: the /agents pane row and its
// header counts, /subagents list and info. Space on a pausing run takes the pause back.
import { describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { setLanguage } from '../../../src/i18n/index.js';
import { setRunStatus } from '../../../src/runtime/store.js';
import { CommandRegistry, runSlashLine, type CommandContext } from '../../../src/ui/commands/registry.js';
import { agentsCommands } from '../../../src/ui/agents/register.js';
import { addTestRun, mountPane, FakeRuntime, waitFor } from './fixtures.js';
import { itInEachLanguage, resetUiBetweenTests } from '../lifecycle.js';

resetUiBetweenTests();

function pausingTree() {
  const rt = new FakeRuntime();
  const root = addTestRun(rt, { task: 'plan' });
  const child = addTestRun(rt, { parent: root.id, task: 'mid step' });
  setRunStatus(rt.store, child.id, 'pausing');
  return { rt, root, child };
}

describe('a run whose pause has not held yet', () => {
  it('the pane row says pausing…, and it still counts as running', async () => {
    const { rt } = pausingTree();
    const pane = await mountPane(rt, { width: 120, maxRows: 20 });
    const row = pane.lines().find((l) => l.includes('main#1 subagent'))!;
    expect(row).toContain('‖ pausing…');
    // The header counts children: the pausing one is still running.
    expect(pane.frame()).toMatch(/1 running · 0 queued · 0 paused/);
  });

  it('/subagents list and info say pausing…', async () => {
    const { rt } = pausingTree();
    const registry = new CommandRegistry(agentsCommands({ archiveAfterMinutes: 60 }));
    const printed: string[] = [];
    const ctx = {
      runtime: rt,
      print: (text: string) => printed.push(text),
      sessions: { list: () => [], currentId: 'x' },
      exit() {},
      setLanguage() {},
      clearScreen() {},
      openPane() {},
      closePane() {},
      isTurnRunning: () => false,
      commands: registry.list(),
      keyBindings: [],
    } as unknown as CommandContext;
    await runSlashLine('/subagents list', registry, ctx);
    expect(printed.join('\n')).toMatch(/main#1 · pausing…/);
    printed.length = 0;
    await runSlashLine('/subagents info main#1', registry, ctx);
    expect(printed.join('\n')).toMatch(/status: pausing…/);
  });

  it('the Spanish catalog has its own word', async () => {
    setLanguage('es');
    const { rt } = pausingTree();
    const pane = await mountPane(rt, { width: 120, maxRows: 20 });
    await waitFor(() => expect(pane.frame()).toContain('‖ pausando…'));
  });
});

describe('Space on a run whose step is still in flight', () => {
  itInEachLanguage(
    'flashes pausing…, as the row reads, not paused (%s)',
    { en: 'pausing main#1…', es: 'pausando main#1…' },
    async (word) => {
      const rt = new FakeRuntime();
      const root = addTestRun(rt, { task: 'plan' });
      const child = addTestRun(rt, { parent: root.id, task: 'mid step' });
      // Its step is in flight: the supervisor reads it pausing until its loop reaches a boundary.
      rt.midStep.add(child.id);
      const pane = await mountPane(rt, { width: 120, maxRows: 20 });
      await pane.press('j');
      await pane.press('j');
      await pane.press(' ');
      expect(rt.callsOf('pause')).toEqual([[child.id]]);
      await waitFor(() => expect(pane.frame()).toContain(word));
      expect(pane.frame()).not.toMatch(/paused main#1|en pausa main#1/);
    },
  );
});

describe('a paused external ACP child', () => {
  function externalTree(status: 'paused' | 'running') {
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'plan' });
    addTestRun(rt, { parent: root.id, alias: 'ext', kind: 'delegate', status, task: 'review', patch: { model: 'acp/gemini' } });
    return rt;
  }

  itInEachLanguage(
    'says that the agent cannot be stopped mid-step, only held at its next ask (%s)',
    { en: '‖ paused · external agent: holds at its next ask', es: '‖ en pausa · agente externo: se detiene en su próxima petición' },
    async (words) => {
      const pane = await mountPane(externalTree('paused'), { width: 140, maxRows: 20 });
      await waitFor(() => expect(pane.lines().find((l) => l.includes('ext#'))).toContain(words));
    },
  );

  it('reads as any child while it runs, and a paused model child keeps the plain word', async () => {
    const pane = await mountPane(externalTree('running'), { width: 140, maxRows: 20 });
    const row = pane.lines().find((l) => l.includes('ext#'))!;
    expect(row).toContain('● running');
    expect(row).not.toContain('external agent');
    cleanup();
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'plan' });
    addTestRun(rt, { parent: root.id, status: 'paused', task: 'mid step' });
    const plain = await mountPane(rt, { width: 140, maxRows: 20 });
    expect(plain.lines().find((l) => l.includes('main#'))).not.toContain('external agent');
  });
});
