// No path outside its worktree is reachable by an isolated child (issue #23): the hardening
// suite's path-escape variants (test/support/pathEscapes.ts, the table
// test/unit/tools/pathEscapes.test.ts runs against a plain folder) run as tool calls of
// isolated children in a real worktree of a real repository, aimed at the original checkout
// and at a folder outside both. Each is refused; the checkout and the outside folder stay
// byte for byte as they were, while the same tools work inside the worktree. A child whose
// roots hold $ARBOR_HOME is fenced off every other worktree there (a sibling's, another
// session's, its caller's), at every depth of nesting.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolTranscriptItem } from '../../../src/model/transcript.js';
import { ESCAPE_VARIANTS, TARGET_FILE, escapeLinks, targetText, treeState, type EscapeWorld } from '../../support/pathEscapes.js';
import { agent, callsThenDone, delegateCall, sequence, text, toml, type DelegateFixture, type Responder } from '../delegate/helpers.js';
import type { Run } from '../../../src/model/run.js';
import { git, isoFixture, runsOf, shell, tempDirForTest, tools, worker } from './helpers.js';

let fx: DelegateFixture | undefined;

/** The tool results a run's own model read, by call id. */
function resultsOf(run: Run): (id: string) => ToolTranscriptItem {
  const items = (fx!.runtime.store.getState().runTranscripts.get(run.id) ?? []).filter((i): i is ToolTranscriptItem => i.kind === 'tool');
  return (id) => {
    const found = items.find((i) => i.callId === id);
    if (!found) throw new Error(`no tool result ${id} in ${run.alias}'s transcript`);
    return found;
  };
}

const A = 'one\ntwo\nthree\n';

describe('the path-escape variants inside a worktree', () => {
  it('every variant aimed at the original checkout or a folder outside is refused; both stay byte for byte', async () => {
    const out = tempDirForTest('arbor-wt-outside-');
    mkdirSync(join(out, 'sub'));
    writeFileSync(join(out, TARGET_FILE), targetText(out));
    // Each child aims the table at one target: w1 at the checkout, w2 at the outside folder
    // (both with the table's roots, "."); w3 at the checkout with the checkout's absolute
    // path as its allowed root (mapped into its worktree); w4 at the checkout with the folder
    // holding it (and the worktrees) as its root and main's: only the checkout being
    // forbidden keeps it out.
    const targets: Record<string, () => string> = { w1: () => fx!.workdir, w2: () => out, w3: () => fx!.workdir, w4: () => fx!.workdir };
    const worldOf = (alias: string): EscapeWorld => ({ root: runsOf(fx!, alias)[0].worktree!.path, target: targets[alias]() });
    const child =
      (alias: string): Responder =>
      (req, nth) =>
        sequence(
          // The child makes its own links out of the worktree, as an attacker would.
          () =>
            tools(
              shell(
                'links',
                escapeLinks(worldOf(alias))
                  .map(([name, to]) => `ln -s '${to}' '${name}'`)
                  .join(' && '),
              ),
              shell('pwd', 'pwd'),
            ),
          () =>
            tools(
              ...ESCAPE_VARIANTS.map((v) => ({ id: v.id, name: v.tool, args: v.args(worldOf(alias)) })),
              // The same tools work inside the worktree.
              { id: 'inside_write', name: 'write_file', args: { path: 'inside-ok.txt', content: 'ok\n' } },
              { id: 'inside_read', name: 'read_file', args: { path: 'a.txt' } },
            ),
          text(`${alias} done`),
        )(req, nth);
    fx = await isoFixture({
      // "ask": nothing is merged, so the checkout must be exactly as it was.
      config: (url, workdir) =>
        toml(
          url,
          agent('main', 'risk_profile = "wide"\nruntime_profile = "agentic"\ndelegates = ["w1", "w2", "w3", "w4"]') +
            worker('w1') +
            worker('w2') +
            agent('w3', 'risk_profile = "rooted"\nruntime_profile = "agentic"') +
            agent('w4', 'risk_profile = "wide"\nruntime_profile = "agentic"') +
            `\n[risk_profiles.rooted]\nallowed_roots = [${JSON.stringify(workdir)}]\n` +
            `\n[risk_profiles.wide]\nallowed_roots = [${JSON.stringify(dirname(workdir))}]\ndelegation_policy = { mode = "allow" }\n` +
            '\n[delegation]\nsubagent_approvals = "allow"\nmerge = "ask"\n',
        ),
      // The checkout's target file is ignored: no snapshot carries it into a worktree, so
      // its text can only come from the checkout itself.
      files: { 'a.txt': A, '.gitignore': `${TARGET_FILE}\n` },
      agents: {
        main: callsThenDone(delegateCall({ parallel: ['w1', 'w2', 'w3', 'w4'], prompt: 'escape', isolation: 'worktree' })),
        w1: child('w1'),
        w2: child('w2'),
        w3: child('w3'),
        w4: child('w4'),
      },
    });
    writeFileSync(join(fx.workdir, TARGET_FILE), targetText(fx.workdir));
    const checkoutBefore = treeState(fx.workdir);
    const outsideBefore = treeState(out);
    const head = git(fx.workdir, 'rev-parse', 'HEAD');
    const index = git(fx.workdir, 'ls-files', '--stage');

    await fx.runtime.startTurn('go');

    for (const alias of ['w1', 'w2', 'w3', 'w4']) {
      const run = runsOf(fx, alias)[0];
      const w = { root: run.worktree!.path, target: targets[alias]() };
      // The child's own transcript: each call's result as the child's model read it.
      const items = (fx.runtime.store.getState().runTranscripts.get(run.id) ?? []).filter(
        (i): i is ToolTranscriptItem => i.kind === 'tool',
      );
      const result = (id: string) => items.find((i) => i.callId === id)!;
      expect(run.status).toBe('completed');
      expect(result('pwd').result).toContain(w.root);
      for (const v of ESCAPE_VARIANTS) {
        const r = result(v.id);
        expect(r.status, `${alias} ${v.id}`).toBe('error');
        // w3's and w4's roots differ from the table's world (absolute, not "."): their
        // refusals may give another reason, never an answer.
        if (alias === 'w1' || alias === 'w2') expect(r.result, `${alias} ${v.id}`).toContain(v.refusal);
        expect(r.result, `${alias} ${v.id}`).not.toContain(targetText(w.target).trim());
      }
      expect(result('inside_write').status).toBe('ok');
      expect(result('inside_read').result).toContain('one');
      // What the child wrote stays in its worktree, waiting for the operator.
      expect(run.worktree).toMatchObject({ state: 'waiting' });
      expect(run.worktree!.files).toEqual(expect.arrayContaining(['inside-ok.txt', 'out', 'secret-link', 'dangling']));
    }
    expect(treeState(fx.workdir)).toEqual(checkoutBefore);
    expect(treeState(out)).toEqual(outsideBefore);
    expect(git(fx.workdir, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(fx.workdir, 'ls-files', '--stage')).toBe(index);
  });
});

const FENCED = 'where an isolated run may reach only its own worktree';
const OTHER_SESSION = 'othersess-1';

describe('an isolated child whose roots hold $ARBOR_HOME', () => {
  it("reaches neither a sibling's worktree nor another session's, through any tool, at any depth; its own works", async () => {
    // Real path: the worktrees' paths are compared with what the tools print.
    const home = tempDirForTest('arbor-wt-fence-home-');
    const worktrees = join(home, 'worktrees');
    const other = join(worktrees, OTHER_SESSION);
    let victimBefore: Record<string, string> | undefined;
    const victimTop = () => runsOf(fx!, 'v')[0].worktree!.path;
    const attackerTop = () => runsOf(fx!, 'a')[0].worktree!.path;
    const sibling = (): EscapeWorld => ({ root: attackerTop(), target: victimTop() });
    const otherWorld = (): EscapeWorld => ({ root: attackerTop(), target: other });
    // Aimed at another session's worktree folder: the table's absolute variants.
    const absolute = ESCAPE_VARIANTS.filter((v) => /_abs(_new)?$/.test(v.id));
    fx = await isoFixture({
      home,
      // Every run's roots hold the folder that holds the checkout and $ARBOR_HOME.
      config: (url, workdir) =>
        toml(
          url,
          agent('main', 'risk_profile = "wide"\nruntime_profile = "agentic"\ndelegates = ["v", "a"]') +
            agent('v', 'risk_profile = "wide"\nruntime_profile = "agentic"') +
            agent('a', 'risk_profile = "wide"\nruntime_profile = "agentic"\ndelegates = ["g"]') +
            agent('g', 'risk_profile = "wide"\nruntime_profile = "agentic"') +
            `\n[risk_profiles.wide]\nallowed_roots = [${JSON.stringify(dirname(workdir))}, ${JSON.stringify(home)}]\n` +
            'delegation_policy = { mode = "allow" }\n' +
            '\n[delegation]\nsubagent_approvals = "allow"\nmerge = "ask"\n',
        ),
      agents: {
        // The victim finishes first; "ask" keeps its worktree, waiting, while the attacker runs.
        main: sequence(
          delegateCall({ agent: 'v', prompt: 'victim', isolation: 'worktree' }),
          () => {
            victimBefore = treeState(victimTop());
            return delegateCall({ agent: 'a', prompt: 'attack', isolation: 'worktree' }, 'd2');
          },
          text('main done'),
        ),
        v: sequence(tools({ id: 'v_write', name: 'write_file', args: { path: TARGET_FILE, content: 'VICTIM' } }), text('v done')),
        a: sequence(
          () =>
            tools(
              shell(
                'links',
                escapeLinks(sibling())
                  .map(([name, to]) => `ln -s '${to}' '${name}'`)
                  .join(' && '),
              ),
              // Its own worktree: written before the walks below run.
              { id: 'inside_write', name: 'write_file', args: { path: 'inside-ok.txt', content: 'ok\n' } },
            ),
          () =>
            tools(
              // A plain overwrite of the victim's file first, then the whole table.
              { id: 'v_text', name: 'write_file', args: { path: join(victimTop(), TARGET_FILE), content: targetText(victimTop()) } },
              ...ESCAPE_VARIANTS.map((v) => ({ id: v.id, name: v.tool, args: v.args(sibling()) })),
              ...absolute.map((v) => ({ id: `other_${v.id}`, name: v.tool, args: v.args(otherWorld()) })),
              { id: 'fence_list', name: 'list_files', args: { path: worktrees } },
              { id: 'home_list', name: 'list_files', args: { path: home, pattern: '**/*' } },
              { id: 'home_grep', name: 'grep', args: { pattern: 'ESCAPE-TARGET|VICTIM', path: home } },
              { id: 'home_glob', name: 'glob', args: { pattern: '**/*', path: home } },
              { id: 'inside_read', name: 'read_file', args: { path: 'a.txt' } },
              { id: 'inside_glob', name: 'glob', args: { pattern: '**/*.txt' } },
              { id: 'inside_grep', name: 'grep', args: { pattern: 'ok', path: '.' } },
            ),
          // Nested: its own isolated child is fenced the same way, in its own worktree.
          { kind: 'tools', calls: [{ id: 'd3', name: 'delegate', args: { agent: 'g', prompt: 'nested', isolation: 'worktree' } }] },
          text('a done'),
        ),
        g: sequence(
          () =>
            tools(
              { id: 'g_sibling', name: 'read_file', args: { path: join(victimTop(), TARGET_FILE) } },
              { id: 'g_sibling_write', name: 'write_file', args: { path: join(victimTop(), 'g.txt'), content: 'PWNED\n' } },
              { id: 'g_parent', name: 'read_file', args: { path: join(attackerTop(), 'inside-ok.txt') } },
              { id: 'g_other', name: 'read_file', args: { path: join(other, TARGET_FILE) } },
              { id: 'g_write', name: 'write_file', args: { path: 'g-ok.txt', content: 'g\n' } },
              { id: 'g_read', name: 'read_file', args: { path: 'inside-ok.txt' } },
            ),
          text('g done'),
        ),
      },
    });
    // Another session's worktree, as a second arbor would leave it.
    mkdirSync(other, { recursive: true, mode: 0o700 });
    writeFileSync(join(other, TARGET_FILE), targetText(other));
    const otherBefore = treeState(other);

    await fx.runtime.startTurn('go');

    const [v, a, g] = ['v', 'a', 'g'].map((alias) => runsOf(fx!, alias)[0]);
    for (const run of [v, a, g]) expect(run.status, run.alias).toBe('completed');
    const result = resultsOf(a);
    expect(result('v_text').status).toBe('error');
    expect(result('v_text').result).toContain(FENCED);
    for (const v of ESCAPE_VARIANTS) {
      const r = result(v.id);
      expect(r.status, v.id).toBe('error');
      // The two pattern variants are refused before any path (the table's reason); every
      // other one by the fence, lexically or through the child's own links.
      expect(r.result, v.id).toContain(v.refusal === 'must be relative' ? v.refusal : FENCED);
      expect(r.result, v.id).not.toContain('VICTIM');
    }
    for (const v of absolute) {
      const r = result(`other_${v.id}`);
      expect(r.status, v.id).toBe('error');
      expect(r.result, v.id).toContain(FENCED);
      expect(r.result, v.id).not.toContain(targetText(other).trim());
    }
    expect(result('fence_list').status).toBe('error');
    expect(result('fence_list').result).toContain(FENCED);
    // Walks over $ARBOR_HOME leave the worktrees folder out (its own worktree is reached
    // through its own paths).
    for (const id of ['home_list', 'home_grep', 'home_glob']) {
      expect(result(id).status, id).toBe('ok');
      expect(result(id).result, id).not.toContain('worktrees/');
      expect(result(id).result, id).not.toContain(basename(victimTop()));
      expect(result(id).result, id).not.toContain(OTHER_SESSION);
    }
    expect(result('home_grep').result).toBe(`No matches for 'ESCAPE-TARGET|VICTIM' under '${home}'.`);
    expect(result('inside_write').status).toBe('ok');
    expect(result('inside_read').result).toContain('one');
    expect(result('inside_glob').result).toContain('inside-ok.txt');
    expect(result('inside_grep').result).toContain('inside-ok.txt');

    const nested = resultsOf(g);
    for (const id of ['g_sibling', 'g_sibling_write', 'g_other']) {
      expect(nested(id).status, id).toBe('error');
      expect(nested(id).result, id).toContain(FENCED);
    }
    // Its caller's worktree is one of the trees it maps from: forbidden as such.
    expect(nested('g_parent').status).toBe('error');
    expect(nested('g_parent').result).toContain('forbidden path');
    expect(nested('g_write').status).toBe('ok');
    expect(nested('g_read').result).toContain('ok');
    expect(readFileSync(join(g.worktree!.path, 'g-ok.txt'), 'utf8')).toBe('g\n');

    expect(treeState(victimTop())).toEqual(victimBefore);
    expect(readFileSync(join(victimTop(), TARGET_FILE), 'utf8')).toBe('VICTIM');
    expect(treeState(other)).toEqual(otherBefore);
  });
});
