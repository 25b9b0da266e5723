// Outside a git work tree (issue #23), a child that needs its own worktree is refused before
// its run exists: spawn_subagent and delegate (sync, parallel, background) return the literal
// refusal as the whole tool result, and no run, card row or task record is ever made for it.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasToolResults } from '../../support/loopbackModel.js';
import { WORKTREE_NEEDS_GIT } from '../../../src/tools/worktreeNotes.js';
import {
  agent,
  callsThenDone,
  delegateCall,
  firstUser,
  lastToolResult,
  sequence,
  text,
  toml,
  toolItems,
  type DelegateFixture,
  type Responder,
} from '../delegate/helpers.js';
import { isoConfig, isoFixture, tools, worker } from './helpers.js';

// isoFixture cleans itself up when the test ends.
let fx: DelegateFixture | undefined;

/** Runs one turn of `main` in a folder that is not a git work tree. */
async function outsideGit(main: Responder, config: (url: string) => string = isoConfig()) {
  fx = await isoFixture({
    config,
    files: false,
    agents: { main, w1: sequence(text('never')), w2: sequence(text('never')), iso: sequence(text('never')) },
  });
  await fx.runtime.startTurn('go');
  return fx;
}

/** Every run is a root turn: no child was ever created (no /agents row, no card entry). */
function onlyRoots(f: DelegateFixture): void {
  const runs = [...f.runtime.store.getState().runs.values()];
  expect(runs.map((r) => r.kind)).toEqual(['root']);
}

/** The literal refusal is the tool result, and the parent model read it word for word. */
function refusedWithLiteral(f: DelegateFixture, tool: string): void {
  const literal = WORKTREE_NEEDS_GIT(f.workdir);
  expect(literal).toBe(`worktree isolation needs a git repository: ${f.workdir} is not inside one`);
  const [item] = toolItems(f.runtime.store.getState().transcript, tool);
  expect(item.status).toBe('error');
  expect(item.result).toBe(literal);
  const mains = f.requestsOf('main');
  expect(mains).toHaveLength(2);
  expect(lastToolResult(mains[1])).toBe(literal);
  for (const alias of ['w1', 'w2', 'iso']) expect(f.requestsOf(alias)).toHaveLength(0);
}

describe('outside a git work tree, a child that needs a worktree is refused before its run exists', () => {
  it('delegate (one target, the call asks for a worktree)', async () => {
    const f = await outsideGit(callsThenDone(delegateCall({ agent: 'w1', prompt: 'x', isolation: 'worktree' })));
    refusedWithLiteral(f, 'delegate');
    onlyRoots(f);
    // A refusal names no target's outcome: the card has no entry for a child that never was.
    const [item] = toolItems(f.runtime.store.getState().transcript, 'delegate');
    expect(item.display).toMatchObject({ kind: 'delegate', targets: [] });
  });

  it('delegate parallel: one target configured isolated refuses the whole call, its sibling never starts', async () => {
    const f = await outsideGit(callsThenDone(delegateCall({ parallel: ['w1', 'iso'], prompt: 'x' })), (url) =>
      toml(
        url,
        agent('main', 'risk_profile = "trusted"\nruntime_profile = "agentic"\ndelegates = ["w1", "iso"]') +
          worker('w1') +
          worker('iso', 'isolation = "worktree"') +
          '\n[delegation]\nsubagent_approvals = "allow"\n',
      ),
    );
    refusedWithLiteral(f, 'delegate');
    onlyRoots(f);
  });

  it('delegate background: no run and no task record', async () => {
    const f = await outsideGit(callsThenDone(delegateCall({ agent: 'w1', prompt: 'x', background: true, isolation: 'worktree' })));
    refusedWithLiteral(f, 'delegate');
    onlyRoots(f);
    const tasks = join(f.home, 'tasks');
    expect(existsSync(tasks) ? readdirSync(tasks) : []).toEqual([]);
  });

  it('[delegation] isolation = "worktree" as the default refuses a call that asks for nothing', async () => {
    fx = await isoFixture({
      config: isoConfig('isolation = "worktree"'),
      files: false,
      agents: { main: callsThenDone(delegateCall({ agent: 'w1', prompt: 'x' })), w1: sequence(text('never')) },
    });
    await fx.runtime.startTurn('go');
    refusedWithLiteral(fx, 'delegate');
    onlyRoots(fx);
  });

  it('spawn_subagent', async () => {
    const f = await outsideGit((req) => {
      if (firstUser(req).startsWith('sub job')) return text('never');
      return hasToolResults(req.body)
        ? text('done')
        : tools({ id: 'sp', name: 'spawn_subagent', args: { prompt: 'sub job', isolation: 'worktree' } });
    });
    refusedWithLiteral(f, 'spawn_subagent');
    onlyRoots(f);
  });

  it('a child that needs no worktree still runs there', async () => {
    const f = await outsideGit(callsThenDone(delegateCall({ agent: 'w1', prompt: 'x' })));
    expect(f.requestsOf('w1')).toHaveLength(1);
    expect([...f.runtime.store.getState().runs.values()].map((r) => r.kind)).toEqual(['root', 'delegate']);
  });
});

describe('the git check does not open a gap in the spawn limits', () => {
  // Two isolated spawns in one parallel batch, one child allowed: both wait for git before
  // their runs exist, so each passes the limits again after it.
  const oneChild = (url: string) =>
    toml(
      url,
      agent('main', 'risk_profile = "trusted"\nruntime_profile = "par"\ndelegates = ["w1", "w2"]') +
        worker('w1') +
        worker('w2') +
        '\n[runtime_profiles.par]\nagentic = true\nparallel_tools = true\n' +
        '\n[delegation]\nsubagent_approvals = "allow"\nmax_children_per_agent = 1\nmerge = "auto"\n',
    );

  it('spawn_subagent: one isolated child starts, the other is refused by max_children_per_agent', async () => {
    fx = await isoFixture({
      config: oneChild,
      agents: {
        main: (req) => {
          if (firstUser(req).startsWith('job')) return text('sub done');
          return hasToolResults(req.body)
            ? text('done')
            : tools(
                { id: 'a', name: 'spawn_subagent', args: { prompt: 'job a', isolation: 'worktree' } },
                { id: 'b', name: 'spawn_subagent', args: { prompt: 'job b', isolation: 'worktree' } },
              );
        },
      },
    });
    await fx.runtime.startTurn('go');
    const results = toolItems(fx.runtime.store.getState().transcript, 'spawn_subagent').map((i) => i.result ?? '');
    expect(results.filter((r) => r.includes('max_children_per_agent = 1'))).toHaveLength(1);
    expect([...fx.runtime.store.getState().runs.values()].filter((r) => r.kind === 'subagent')).toHaveLength(1);
  });

  it('delegate: one isolated child starts, the other call is refused by max_children_per_agent', async () => {
    fx = await isoFixture({
      config: oneChild,
      agents: {
        main: (req) =>
          hasToolResults(req.body)
            ? text('done')
            : tools(
                { id: 'a', name: 'delegate', args: { agent: 'w1', prompt: 'x', isolation: 'worktree' } },
                { id: 'b', name: 'delegate', args: { agent: 'w2', prompt: 'x', isolation: 'worktree' } },
              ),
        w1: sequence(text('w1 done')),
        w2: sequence(text('w2 done')),
      },
    });
    await fx.runtime.startTurn('go');
    const results = toolItems(fx.runtime.store.getState().transcript).map((i) => i.result ?? '');
    expect(results.filter((r) => r.includes('max_children_per_agent = 1'))).toHaveLength(1);
    expect([...fx.runtime.store.getState().runs.values()].filter((r) => r.kind === 'delegate')).toHaveLength(1);
  });
});
