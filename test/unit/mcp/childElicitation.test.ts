// A child's MCP form joins the operator's queue like a child's ask: a real SDK server over
// stdio whose tool calls elicitInput, a spawn_subagent child calling it on the loopback
// model. The pending form names the child (its path in the tree), the operator's answer
// reaches the server, and a child killed while its form waits takes the form away with a
// cancel answered to the server.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runPath } from '../../../src/runtime/runSelection.js';
import { until } from '../delegate/helpers.js';
import { tempTree } from '../../helpers/tempTree.js';
import { mainTrusting, mcpFixture, nodeServer, spawnsChildThatCalls } from './helpers.js';

const sdk = (p: string) => pathToFileURL(resolve('node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;
const serverScript = (out: string) => `
import { renameSync, writeFileSync } from 'node:fs';
import { McpServer } from '${sdk('server/mcp.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
const server = new McpServer({ name: 'forms', version: '1' });
server.registerTool('ask', { description: 'asks the user' }, async () => {
  const r = await server.server.elicitInput({
    message: 'Which city?',
    requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  });
  // Written whole, then renamed: the test reads it as soon as it exists.
  writeFileSync(${JSON.stringify(out + '.tmp')}, JSON.stringify(r));
  renameSync(${JSON.stringify(out + '.tmp')}, ${JSON.stringify(out)});
  return { content: [{ type: 'text', text: 'answered ' + r.action }] };
});
await server.connect(new StdioServerTransport());
`;

describe('a child asks for a form', () => {
  it('the form is queued with the child path, answered by the operator; a killed child cancels it', async () => {
    const dir = tempTree('forms', {});
    const script = join(dir, 'forms-server.mjs');
    const out = join(dir, 'answer.json');
    writeFileSync(script, serverScript(out));
    const fx = await mcpFixture({
      interactive: true,
      config: () => `${nodeServer('forms', [script])}${mainTrusting(['forms'], 'delegation_policy = { mode = "allow" }')}`,
      agents: { main: spawnsChildThatCalls({ kind: 'tools', calls: [{ id: 'c1', name: 'mcp__forms__ask', args: {} }] }) },
    });
    const rt = fx.runtime;
    const pending = () => rt.store.getState().controls.elicitations ?? [];

    const turn = rt.startTurn('go');
    await until(() => pending().length === 1, 30000, 'the child form to be queued');
    const form = pending()[0];
    const child = rt.store.getState().runs.get(form.runId);
    expect(child?.parentRunId).toBeDefined();
    expect(form).toMatchObject({ server: 'forms', message: 'Which city?', attribution: 'call' });
    expect(runPath(rt.store.getState(), form.runId).join(' › ')).toMatch(/^main › main#\d+$/);
    rt.answerElicitation!(form.id, { action: 'accept', content: { city: 'Lisbon' } });
    await turn;
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ action: 'accept', content: { city: 'Lisbon' } });
    rmSync(out);
    expect(pending()).toEqual([]);

    const second = rt.startTurn('go again');
    await until(() => pending().length === 1, 30000, 'the second child form to be queued');
    const again = pending()[0];
    rt.kill(again.runId);
    await until(() => existsSync(out), 15000, 'the server to be answered');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ action: 'cancel' });
    expect(pending()).toEqual([]);
    await second;
  }, 90_000);
});
