// A child never gets more than its caller allows, at every hop: approvals (a bounded child
// auto-approves only what its caller also auto-approves), tool ceilings and path roots
// carry across bounded, independent and spawn_subagent hops. Each case runs a real chain
// against the loopback model and checks whether the shell command actually ran.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_TOOL } from '../../../src/runtime/toolCall.js';
import { CHILD_APPROVAL_DENIED } from '../../../src/tools/approvalPolicy.js';
import { PATH_OUTSIDE_ROOTS } from '../../../src/tools/pathGuard.js';
import { hasToolResults, type LoopbackIncoming, type LoopbackReply } from '../../support/loopbackModel.js';
import {
  delegateFixture,
  firstUser,
  lastToolResult,
  text,
  toolNames,
  type DelegateFixture,
  type Responder,
  chainConfig,
} from './helpers.js';

let fx: DelegateFixture | undefined;

const SUB_PROMPT = 'sub: do it';

/** What the last agent of a chain does. `spawn:<final>` spawns a subagent that does <final>. */
type Final = 'shell' | 'read' | `delegate:${string}` | `spawn:${string}`;

function call(name: string, args: object, id = 'c1'): LoopbackReply {
  return { kind: 'tools', calls: [{ id, name, args }] };
}

function finalCall(final: string, label: string): LoopbackReply {
  if (final === 'shell') return call('shell', { command: `touch ran-${label}` });
  if (final === 'read') return call('read_file', { path: 'secret.txt' });
  if (final.startsWith('delegate:')) return call('delegate', { agent: final.slice('delegate:'.length), prompt: 'go' });
  if (final.startsWith('spawn:')) return call('spawn_subagent', { prompt: `${SUB_PROMPT} ${final.slice('spawn:'.length)}` });
  throw new Error(`bad final ${final}`);
}

/** Each agent of `path` delegates to the next; the last one does `final`. A subagent (its
 * first user message starts with SUB_PROMPT) does what its prompt names. */
function scripts(path: string[], final: Final): Record<string, Responder> {
  const out: Record<string, Responder> = {};
  const aliases = ['main', 'mid', 'leaf', 'wide'];
  for (const alias of aliases) {
    out[alias] = (req: LoopbackIncoming) => {
      if (hasToolResults(req.body)) return text(`${alias} done`);
      const user = firstUser(req);
      if (user.startsWith(SUB_PROMPT)) return finalCall(user.slice(SUB_PROMPT.length + 1), `${alias}-sub`);
      const i = path.indexOf(alias);
      if (i === -1) return text(`${alias} idle`);
      if (i < path.length - 1) return call('delegate', { agent: path[i + 1], prompt: 'go' });
      return finalCall(final, alias);
    };
  }
  return out;
}

/** The shared chain, plus "inner" (confined to ./inner) and `extra`. */
function config(rootProfile: string, extra = '') {
  return chainConfig(
    rootProfile,
    `[risk_profiles.inner]
delegation_policy = { mode = "allow" }
allowed_roots = ["inner"]
auto_approve = ["read_file", "shell"]
${extra}`,
  );
}

async function runChain(rootProfile: string, path: string[], final: Final, extra = ''): Promise<DelegateFixture> {
  fx = await delegateFixture({ config: config(rootProfile, extra), agents: scripts(path, final) });
  mkdirSync(join(fx.workdir, 'inner'));
  writeFileSync(join(fx.workdir, 'secret.txt'), 'OUTSIDE-SECRET');
  await fx.runtime.startTurn('go');
  return fx;
}

const ran = (f: DelegateFixture, label: string) => existsSync(join(f.workdir, `ran-${label}`));

/** The tool result the acting agent (or its subagent) was sent. */
function resultFor(f: DelegateFixture, alias: string, sub = false): string {
  const reqs = f.requestsOf(alias).filter((r) => firstUser(r).startsWith(SUB_PROMPT) === sub && hasToolResults(r.body));
  expect(reqs.length, `${alias}${sub ? ' (subagent)' : ''} got a tool result`).toBeGreaterThan(0);
  return lastToolResult(reqs[reqs.length - 1]);
}

function firstRequestOf(f: DelegateFixture, alias: string, sub = false): LoopbackIncoming {
  const req = f.requestsOf(alias).find((r) => firstUser(r).startsWith(SUB_PROMPT) === sub);
  expect(req, `${alias} ran`).toBeDefined();
  return req!;
}

describe('approvals across hops (root asks before shell; every other agent auto-approves it)', () => {
  it('root -> bounded: the target cannot approve what its caller would ask for', async () => {
    const f = await runChain('asks', ['main', 'leaf'], 'shell');
    expect(ran(f, 'leaf')).toBe(false);
    expect(resultFor(f, 'leaf')).toBe(CHILD_APPROVAL_DENIED('shell'));
  });

  it('root -> bounded, control: when the caller also auto-approves shell it runs', async () => {
    const f = await runChain('yes', ['main', 'leaf'], 'shell');
    expect(ran(f, 'leaf')).toBe(true);
  });

  it('root -> independent: the target runs under its own approvals', async () => {
    const f = await runChain('asks', ['main', 'wide'], 'shell');
    expect(ran(f, 'wide')).toBe(true);
  });

  it('bounded -> bounded: the root ceiling holds two hops down', async () => {
    const f = await runChain('asks', ['main', 'mid', 'leaf'], 'shell');
    expect(f.requestsOf('leaf').length).toBeGreaterThan(0);
    expect(ran(f, 'leaf')).toBe(false);
    expect(resultFor(f, 'leaf')).toBe(CHILD_APPROVAL_DENIED('shell'));
  });

  it('bounded -> independent: an independent hop inside a bounded subtree keeps the ceiling', async () => {
    const f = await runChain('asks', ['main', 'mid', 'wide'], 'shell');
    expect(f.requestsOf('wide').length).toBeGreaterThan(0);
    expect(ran(f, 'wide')).toBe(false);
    expect(resultFor(f, 'wide')).toBe(CHILD_APPROVAL_DENIED('shell'));
  });

  it('independent -> bounded / independent: an independent child has no delegate at all', async () => {
    for (const next of ['leaf', 'mid']) {
      const f = await runChain('asks', ['main', 'wide'], `delegate:${next}`);
      expect(toolNames(firstRequestOf(f, 'wide'))).not.toContain('delegate');
      expect(resultFor(f, 'wide')).toMatch(/^Unknown tool 'delegate'\./);
      expect(f.requestsOf(next)).toHaveLength(0);
      await f.cleanup();
      fx = undefined;
    }
  });

  it('spawn_subagent inside the root: the subagent is denied what the root would ask for', async () => {
    const f = await runChain('asks', ['main'], 'spawn:shell');
    expect(ran(f, 'main-sub')).toBe(false);
    expect(resultFor(f, 'main', true)).toBe(CHILD_APPROVAL_DENIED('shell'));
  });

  it('spawn_subagent inside a bounded child: the ceiling reaches the subagent', async () => {
    const f = await runChain('asks', ['main', 'leaf'], 'spawn:shell');
    expect(ran(f, 'leaf-sub')).toBe(false);
    expect(resultFor(f, 'leaf', true)).toBe(CHILD_APPROVAL_DENIED('shell'));
  });

  it('spawn_subagent inside bounded -> bounded and bounded -> independent children', async () => {
    for (const last of ['leaf', 'wide']) {
      const f = await runChain('asks', ['main', 'mid', last], 'spawn:shell');
      expect(ran(f, `${last}-sub`)).toBe(false);
      expect(resultFor(f, last, true)).toBe(CHILD_APPROVAL_DENIED('shell'));
      await f.cleanup();
      fx = undefined;
    }
  });

  it("spawn_subagent inside an independent child: the target's own approvals, and still no delegate", async () => {
    const f = await runChain('asks', ['main', 'wide'], 'spawn:shell');
    expect(ran(f, 'wide-sub')).toBe(true);
    await f.cleanup();
    const g = await runChain('asks', ['main', 'wide'], 'spawn:delegate:leaf');
    expect(toolNames(firstRequestOf(g, 'wide', true))).not.toContain('delegate');
    expect(resultFor(g, 'wide', true)).toMatch(/^Unknown tool 'delegate'\./);
    expect(g.requestsOf('leaf')).toHaveLength(0);
  });

  it('[delegation] subagent_auto_approve = true lets children run what would ask, at any depth', async () => {
    const f = await runChain('asks', ['main', 'mid', 'wide'], 'shell', '[delegation]\nsubagent_auto_approve = true');
    expect(ran(f, 'wide')).toBe(true);
  });
});

describe('tool ceilings across hops (root: allowed_tools = read_file, delegate, spawn_subagent)', () => {
  const noShell = (f: DelegateFixture, alias: string, sub = false) => {
    const req = firstRequestOf(f, alias, sub);
    expect(toolNames(req)).not.toContain('shell');
    expect(resultFor(f, alias, sub)).toBe(UNKNOWN_TOOL('shell', toolNames(req)));
  };

  it('root -> bounded: the target gets no tool its caller lacks', async () => {
    const f = await runChain('readonly', ['main', 'leaf'], 'shell');
    noShell(f, 'leaf');
    expect(ran(f, 'leaf')).toBe(false);
  });

  it('root -> independent: the target has its own registry', async () => {
    const f = await runChain('readonly', ['main', 'wide'], 'shell');
    expect(toolNames(firstRequestOf(f, 'wide'))).toContain('shell');
    expect(ran(f, 'wide')).toBe(true);
  });

  it('bounded -> bounded', async () => {
    const f = await runChain('readonly', ['main', 'mid', 'leaf'], 'shell');
    noShell(f, 'leaf');
    expect(ran(f, 'leaf')).toBe(false);
  });

  it('bounded -> independent: read_file + delegate never reaches shell through mid -> wide, even with subagent_auto_approve', async () => {
    const f = await runChain('readonly', ['main', 'mid', 'wide'], 'shell', '[delegation]\nsubagent_auto_approve = true');
    noShell(f, 'wide');
    expect(ran(f, 'wide')).toBe(false);
  });

  it('spawn_subagent inside bounded, bounded -> bounded and bounded -> independent children', async () => {
    for (const path of [
      ['main', 'leaf'],
      ['main', 'mid', 'leaf'],
      ['main', 'mid', 'wide'],
    ]) {
      const last = path[path.length - 1];
      const f = await runChain('readonly', path, 'spawn:shell', '[delegation]\nsubagent_auto_approve = true');
      noShell(f, last, true);
      expect(ran(f, `${last}-sub`)).toBe(false);
      await f.cleanup();
      fx = undefined;
    }
  });

  it('spawn_subagent inside the root and inside an independent child', async () => {
    const f = await runChain('readonly', ['main'], 'spawn:shell', '[delegation]\nsubagent_auto_approve = true');
    noShell(f, 'main', true);
    await f.cleanup();
    const g = await runChain('readonly', ['main', 'wide'], 'spawn:shell');
    expect(ran(g, 'wide-sub')).toBe(true);
  });
});

describe('path roots across hops (root: allowed_roots = ["inner"]; the others: ["."])', () => {
  it('bounded, bounded -> bounded, bounded -> independent and their subagents cannot read outside inner/', async () => {
    const cases: Array<{ path: string[]; final: Final; who: string; sub: boolean }> = [
      { path: ['main', 'leaf'], final: 'read', who: 'leaf', sub: false },
      { path: ['main', 'mid', 'leaf'], final: 'read', who: 'leaf', sub: false },
      { path: ['main', 'mid', 'wide'], final: 'read', who: 'wide', sub: false },
      { path: ['main', 'mid', 'wide'], final: 'spawn:read', who: 'wide', sub: true },
    ];
    for (const c of cases) {
      const f = await runChain('inner', c.path, c.final);
      const result = resultFor(f, c.who, c.sub);
      expect(result).not.toContain('OUTSIDE-SECRET');
      expect(result).toBe(PATH_OUTSIDE_ROOTS('secret.txt', ['inner']));
      await f.cleanup();
      fx = undefined;
    }
  });

  it('root -> independent reads under its own roots', async () => {
    const f = await runChain('inner', ['main', 'wide'], 'read');
    expect(resultFor(f, 'wide')).toBe('     1\tOUTSIDE-SECRET');
  });
});
