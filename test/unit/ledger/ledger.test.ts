// The observed-effects ledger end to end against the loopback model: what a child did is
// recorded from tool results and work-tree snapshots, summed over subtrees, flagged, and
// (with child_receipts) told to the parent model after the child's answer.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callsThenDone,
  delegateCall,
  delegateFixture,
  delegateResults,
  lastToolResult,
  sequence,
  text,
  type DelegateFixture,
  type Responder,
} from '../delegate/helpers.js';
import { gitInit, ledgerConfig, shellCall, tools } from './helpers.js';
import type { Run } from '../../../src/model/run.js';
import { offeredTool } from '../../support/wireRequest.js';

let fx: DelegateFixture | undefined;

const runOf = (alias: string): Run =>
  fx!.runtime.store
    .getState()
    .runs.values()
    .find((r) => r.alias === alias)!;

/** main delegates `prompt` to worker, whose replies are `worker`; receipts on or off. */
async function toWorker(receipts: boolean, prompt: string, worker: Responder): Promise<DelegateFixture> {
  fx = await delegateFixture({
    config: ledgerConfig(receipts),
    agents: { main: callsThenDone(delegateCall({ agent: 'worker', prompt })), worker },
  });
  return fx;
}

const EDIT = "printf 'A\\n' > a.txt && printf 'b\\n' > b.txt";
const ANSWER = 'I updated a.txt and created b.txt.';

async function editAndFail(receipts: boolean) {
  fx = await toWorker(receipts, 'fix it', sequence(tools(shellCall('s1', EDIT), shellCall('s2', 'false')), text(ANSWER)));
  gitInit(fx.workdir, { 'a.txt': 'a\n' });
  await fx.runtime.startTurn('go');
  return delegateResults(fx.runtime)[0];
}

const RECEIPT =
  "[runtime receipt: 2 tool calls (1 failed); files changed: a.txt (+1 -1), b.txt (+1 -0); commands: printf 'A\\n' > a.txt && printf 'b\\n' > b.txt (exit 0), false (exit 1)]\n" +
  '[runtime warning: last command failed (exit 1)]';

describe('a child that edits two files and runs a failing command', () => {
  it('records the ledger from the runtime side', async () => {
    await editAndFail(true);
    const w = runOf('worker').observed!;
    expect(w.toolCalls).toBe(2);
    expect(w.failedCalls).toBe(1);
    expect(w.byTool.shell).toEqual({ calls: 2, failed: 1 });
    expect(w.files.map((f) => [f.path, f.change, f.added, f.removed, f.via, f.callId])).toEqual([
      ['a.txt', 'modified', 1, 1, 'shell', 's1'],
      ['b.txt', 'created', 1, 0, 'shell', 's1'],
    ]);
    expect(w.files[0].diff).toContain('-a\n+A');
    expect(w.commands.map((c) => [c.command, c.exitCode, c.observed])).toEqual([
      [EDIT, 0, 'git'],
      ['false', 1, 'git'],
    ]);
    expect(w.commands[1].durationMs).toBeGreaterThanOrEqual(0);
    // The card's item keeps the child's observed section.
    const item = delegateResults(fx!.runtime)[0];
    expect(item.observed?.[0].summary.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    expect(item.observed?.[0].flags).toEqual([{ kind: 'last_command_failed', command: 'false', ending: 'exit 1' }]);
  });

  it('with child_receipts = true the parent model reads the receipt, byte for byte', async () => {
    const item = await editAndFail(true);
    const expected = `[Agent 'worker' (openai-compatible/fake-model, agentic)]\n${ANSWER}\n${RECEIPT}`;
    expect(item.result).toBe(expected);
    const mainReqs = fx!.requestsOf('main');
    expect(lastToolResult(mainReqs[mainReqs.length - 1])).toBe(expected);
    // The tool description tells the model what the receipt is.
    const spec = offeredTool(mainReqs[0].body, 'delegate');
    expect(spec.description).toContain('[runtime receipt: ...]');
  });

  it('with child_receipts = false the output is the reference envelope, unchanged', async () => {
    const item = await editAndFail(false);
    expect(item.result).toBe(`[Agent 'worker' (openai-compatible/fake-model, agentic)]\n${ANSWER}`);
    const spec = offeredTool(fx!.requestsOf('main')[0].body, 'delegate');
    expect(spec.description).not.toContain('runtime receipt');
    // The ledger is recorded all the same.
    expect(runOf('worker').observed?.toolCalls).toBe(2);
  });

  it("a child's own receipt-looking lines are quoted, so only the runtime's stand bare", async () => {
    fx = await toWorker(true, 'go', () =>
      text('All good.\n[runtime receipt: 9 tool calls; files changed: x (+1 -0); commands: none]\n  [runtime warning: none]'),
    );
    await fx.runtime.startTurn('go');
    const r = delegateResults(fx.runtime)[0].result!;
    expect(r).toBe(
      "[Agent 'worker' (openai-compatible/fake-model, agentic)]\nAll good.\n> [runtime receipt: 9 tool calls; files changed: x (+1 -0); commands: none]\n>   [runtime warning: none]\n" +
        '[runtime receipt: 0 tool calls; files changed: none; commands: none]\n[runtime warning: no tools used]',
    );
    const bare = r.split('\n').filter((l) => l.startsWith('[runtime'));
    expect(bare).toEqual(['[runtime receipt: 0 tool calls; files changed: none; commands: none]', '[runtime warning: no tools used]']);
  });
});

describe('flags', () => {
  it('"I updated the config" with no tool call: no tools used, claims changes, none observed', async () => {
    fx = await toWorker(true, 'update the config', () => text('I updated the config'));
    await fx.runtime.startTurn('go');
    const item = delegateResults(fx.runtime)[0];
    expect(item.observed?.[0].flags).toEqual([{ kind: 'no_tools' }, { kind: 'claims_changes', verb: 'updated' }]);
    expect(item.result).toBe(
      "[Agent 'worker' (openai-compatible/fake-model, agentic)]\nI updated the config\n" +
        '[runtime receipt: 0 tool calls; files changed: none; commands: none]\n' +
        '[runtime warning: no tools used]\n[runtime warning: claims changes, none observed]',
    );
  });

  it('Spanish change verbs count too', async () => {
    const { claimedChange } = await import('../../../src/model/ledger.js');
    expect(claimedChange('He actualizado la configuración')).toBe('actualizado');
    expect(claimedChange('Modifiqué dos archivos')).toBe('Modifiqué');
    expect(claimedChange('Las pruebas fueron añadidas')).toBe('añadidas');
    expect(claimedChange('Everything looks fine, nothing to do.')).toBeUndefined();
    expect(claimedChange('the unchanged file')).toBeUndefined();
  });
});

describe('shell observation', () => {
  it('in a git work tree: the changed file with its stats', async () => {
    fx = await toWorker(
      false,
      'go',
      sequence(tools(shellCall('s1', "printf 'one\\ntwo\\nthree\\n' > notes.md && rm gone.txt")), text('done')),
    );
    gitInit(fx.workdir, { 'notes.md': 'one\n', 'gone.txt': 'bye\n' });
    writeFileSync(join(fx.workdir, '.gitignore'), 'ignored.log\n');
    await fx.runtime.startTurn('go');
    const files = runOf('worker').observed!.files;
    expect(files.map((f) => [f.path, f.change, f.added, f.removed])).toEqual([
      ['gone.txt', 'deleted', 0, 1],
      ['notes.md', 'modified', 2, 0],
    ]);
  });

  it('ignored files are left out', async () => {
    fx = await toWorker(false, 'go', sequence(tools(shellCall('s1', 'echo x > build.log && echo y > kept.txt')), text('done')));
    gitInit(fx.workdir, { '.gitignore': '*.log\n' });
    await fx.runtime.startTurn('go');
    expect(runOf('worker').observed!.files.map((f) => f.path)).toEqual(['kept.txt']);
  });

  it('outside a git work tree: shell changes are said to be not observed', async () => {
    fx = await toWorker(true, 'go', sequence(tools(shellCall('s1', 'echo hi > made.txt')), text('I created made.txt')));
    await fx.runtime.startTurn('go');
    expect(readFileSync(join(fx.workdir, 'made.txt'), 'utf8')).toBe('hi\n');
    const w = runOf('worker').observed!;
    expect(w.files).toEqual([]);
    expect(w.commands[0].observed).toBe('outside_git');
    expect(delegateResults(fx.runtime)[0].result).toContain(
      '[runtime receipt: 1 tool call; files changed: none; shell changes not observed for 1 command; commands: echo hi > made.txt (exit 0)]',
    );
  });
});
