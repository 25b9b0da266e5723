// No path outside its worktree is reachable by an isolated child (issue #23): the hardening
// suite's path-escape variants (test/support/pathEscapes.ts, the table
// test/unit/tools/pathEscapes.test.ts runs against a plain folder) run as tool calls of
// isolated children in a real worktree of a real repository, aimed at the original checkout
// and at a folder outside both. Each is refused; the checkout and the outside folder stay
// byte for byte as they were, while the same tools work inside the worktree.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolTranscriptItem } from '../../../src/model/transcript.js';
import { ESCAPE_VARIANTS, TARGET_FILE, escapeLinks, targetText, treeState, type EscapeWorld } from '../../support/pathEscapes.js';
import { agent, callsThenDone, delegateCall, sequence, text, toml, type DelegateFixture, type Responder } from '../delegate/helpers.js';
import { git, isoFixture, runsOf, shell, tools, worker } from './helpers.js';

let fx: DelegateFixture | undefined;
let outside: string | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
  if (outside) rmSync(outside, { recursive: true, force: true });
  outside = undefined;
});

const A = 'one\ntwo\nthree\n';

describe('the path-escape variants inside a worktree', () => {
  it('every variant aimed at the original checkout or a folder outside is refused; both stay byte for byte', async () => {
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-wt-outside-')));
    const out = outside;
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
