// A real SDK stdio server whose tool answers with 50 MB on one line: the result reaches
// the model cut with the usual note (naming the real size), the server stays ready, and
// the next call on the same process answers normally.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { MCP_OUTPUT_CAP_BYTES } from '../../../src/mcp/results.js';
import { lastToolResult, sequence, text } from '../delegate/helpers.js';
import { mainTrusting, mcpFixture, mcpServerPids, nodeServer } from './helpers.js';

const FIXTURE = resolve('test/fixtures/mcp/bigResult.mjs');

const call = (name: string, id: string) => ({ kind: 'tools' as const, calls: [{ id, name, args: {} }] });

describe('a 50 MB stdio result', () => {
  it('is cut with the note, and the same server answers the next call', async () => {
    const fx = await mcpFixture({
      config: () => `${nodeServer('big', [FIXTURE], 'startup_timeout_secs = 30\ntool_timeout_secs = 120')}${mainTrusting(['big'])}`,
      agents: { main: sequence(call('mcp__big__big', 'c1'), call('mcp__big__ping', 'c2'), text('done')) },
    });
    const pidsBefore = await (async () => {
      await fx.runtime.startTurn('go');
      return mcpServerPids();
    })();
    const [, afterBig, afterPing] = fx.requestsOf('main');
    const cut = lastToolResult(afterBig!);
    expect(cut.startsWith('HEAD-MARKER xxx')).toBe(true);
    const note = /\[truncated: showed the first (\d+) of (\d+) bytes of the tool's output\]$/.exec(cut);
    expect(note).not.toBeNull();
    expect(Number(note![1])).toBeLessThanOrEqual(MCP_OUTPUT_CAP_BYTES);
    expect(Number(note![2])).toBeGreaterThan(50 * 1024 * 1024);
    expect(lastToolResult(afterPing!)).toBe('pong');
    const view = fx.runtime.store.getState().mcpServers!.find((v) => v.name === 'big')!;
    expect(view.status).toBe('ready');
    expect(pidsBefore).toHaveLength(1);
  }, 120_000);
});
