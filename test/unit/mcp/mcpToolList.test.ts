// Tool lists from real SDK servers that the SDK's own listTools would reject whole.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { callsThenDone, lastToolResult, text } from '../delegate/helpers.js';
import { mainTrusting, mcpFixture, nodeServer, toolNames, type McpFixture } from './helpers.js';

const serverToml = (name: string, fixture: string) => `${nodeServer(name, [resolve('test/fixtures/mcp', fixture)])}${mainTrusting([name])}`;

const notices = (fx: McpFixture) => fx.runtime.store.getState().transcript.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));

describe('an invalid inputSchema', () => {
  it('drops only that tool, naming it in /mcp and a notice; the server and its other tools work', async () => {
    const fx = await mcpFixture({
      config: () => serverToml('bads', 'badSchema.mjs'),
      agents: { main: callsThenDone({ kind: 'tools', calls: [{ id: 'c1', name: 'mcp__bads__fine', args: {} }] }) },
    });
    await fx.runtime.startTurn('go');
    const [first, second] = fx.requestsOf('main');
    expect(toolNames(first!)).toContain('mcp__bads__fine');
    expect(toolNames(first!)).not.toContain('mcp__bads__broken');
    expect(lastToolResult(second!)).toBe('called fine');
    const view = fx.runtime.store.getState().mcpServers!.find((v) => v.name === 'bads')!;
    expect(view.status).toBe('ready');
    expect(view.tools.map((t) => t.name)).toEqual(['mcp__bads__fine']);
    expect(view.warnings).toHaveLength(1);
    expect(view.warnings![0]).toMatch(/^tool 'broken' dropped: inputSchema/);
    expect(notices(fx).filter((n) => n.includes("tool 'broken' dropped"))).toHaveLength(1);
    expect(notices(fx).some((n) => n.includes('failed'))).toBe(false);
  }, 60_000);
});

describe('tool names that collide once reduced or cut', () => {
  it('all stay, under distinct deterministic names that /mcp shows as the model sees them, with a warning', async () => {
    const fx = await mcpFixture({
      config: () => serverToml('co', 'collide.mjs'),
      agents: {
        main: (req, nth) => {
          if (nth > 0) return text('done');
          // Call the last renamed tool by the name it was offered under.
          const renamed = toolNames(req).filter((n) => n.startsWith('mcp__co__get_item_'));
          return { kind: 'tools', calls: [{ id: 'c1', name: renamed[renamed.length - 1]!, args: {} }] };
        },
      },
    });
    await fx.runtime.startTurn('go');
    const [first, second] = fx.requestsOf('main');
    const offered = toolNames(first!).filter((n) => n.startsWith('mcp__co__'));
    expect(offered).toHaveLength(7);
    expect(new Set(offered).size).toBe(7);
    expect(offered.every((n) => n.length <= 64)).toBe(true);
    expect(lastToolResult(second!)).toBe('called get item');
    const view = fx.runtime.store.getState().mcpServers!.find((v) => v.name === 'co')!;
    expect(view.tools.map((t) => t.name)).toEqual(offered);
    expect(view.warnings).toHaveLength(4);
    expect(view.warnings!.join('\n')).toContain("tool 'get item' is offered as mcp__co__get_item_");
    expect(notices(fx).filter((n) => n.includes('is offered as'))).toHaveLength(4);
  }, 60_000);
});
