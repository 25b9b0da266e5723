// The supervisor's seams. It keeps a child's loop context (its whole history) only while the child can
// still be steered: while it runs, and after it ends only while it is listed
// (archive_after_minutes). A long session must not hold every child's history forever.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { childRuns, baseToml, calls, firstUserText, makeFixture, text, toolMessages, type Fixture } from '../../helpers/runtimeFixture.js';
import type { Tool } from '../../../src/tools/types.js';

let fx: Fixture | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await fx?.cleanup();
  fx = undefined;
});

const children = (f: Fixture) => childRuns(f);

/** A root turn that spawns `n` subagents, each answering at once. */
const spawner =
  (n: number) =>
  ({ body }: { body: unknown }) => {
    if (firstUserText(body).startsWith('job')) return text(`did ${firstUserText(body)}`);
    if (toolMessages(body).length) return text('root done');
    return calls(...Array.from({ length: n }, (_, i) => ({ id: `j${i}`, name: 'spawn_subagent', args: { prompt: `job ${i}` } })));
  };

describe('kept loop contexts', () => {
  it('are emptied when the runs end and nothing lists them (archive_after_minutes = 0)', async () => {
    fx = await makeFixture({
      toml: (u) => baseToml(u, '[runtime_profiles.default]\nparallel_tools = true\n[delegation]\narchive_after_minutes = 0\n'),
      respond: spawner(3),
    });
    await fx.runtime.startTurn('go');
    const sup = fx.runtime.supervisor;
    expect(children(fx)).toHaveLength(3);
    expect(children(fx).every((r) => r.status === 'completed')).toBe(true);
    expect(sup.keptContextCount).toBe(0);
    expect(sup.hasLiveHandles).toBe(false);
    expect(fx.runtime.steer(children(fx)[0].id, 'and then?')).toBe('unknown');
  });

  it('stay while a finished child is listed, and go once it is archived', async () => {
    fx = await makeFixture({ toml: (u) => baseToml(u, '[delegation]\narchive_after_minutes = 5\n'), respond: spawner(1) });
    await fx.runtime.startTurn('go');
    const sup = fx.runtime.supervisor;
    const [child] = children(fx);
    expect(sup.keptContextCount).toBe(1);
    expect(sup.steerableContext(child.id)).toBeDefined();

    const endedAt = child.endedAt!;
    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(endedAt + 4 * 60_000);
    expect(sup.steerableContext(child.id)).toBeDefined();
    now.mockReturnValue(endedAt + 5 * 60_000 + 1);
    expect(sup.steerableContext(child.id)).toBeUndefined();
    expect(sup.keptContextCount).toBe(0);
    expect(fx.runtime.steer(child.id, 'and then?')).toBe('unknown');
  });
});

describe('the services tools get', () => {
  it('are exactly ToolServices: the subagent calls and the delegate service, never the supervisor', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const probe: Tool = {
      name: 'probe_services',
      asksByDefault: false,
      spec: () => ({ name: 'probe_services', description: 'records ctx.services', parameters: { type: 'object', properties: {} } }),
      async run(_args, ctx) {
        seen.push({ ...(ctx.services as unknown as Record<string, unknown>) });
        return { success: true, output: 'seen' };
      },
    };
    const delegate = { admissionRefusal: () => undefined };
    fx = await makeFixture({
      respond: ({ body }) => (toolMessages(body).length ? text('done') : calls({ id: 'p', name: 'probe_services', args: {} })),
      runtime: { extraTools: [probe], extraServices: () => ({ delegate: delegate as never }) },
    });
    await fx.runtime.startTurn('go');
    expect(seen).toHaveLength(1);
    expect(Object.keys(seen[0]).sort()).toEqual(['delegate', 'runSubagent', 'spawnRefusal']);
    expect(seen[0].delegate).toBe(delegate);
    expect(Object.values(seen[0])).not.toContain(fx.runtime.supervisor);
  });
});
