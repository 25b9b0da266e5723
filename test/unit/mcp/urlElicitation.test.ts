// URL-mode elicitation against a real SDK server over stdio: a child's request to visit a
// page joins the operator's queue with the child's path, the message and URL neutralised;
// the page opens only when the operator chooses so, through $BROWSER with no secret in its
// environment, and the request keeps waiting for the answer, which reaches the server
// (accept carries no content). The server's notifications/elicitation/complete answers a
// waiting request. Headless declines, --yes included, and a URL that is not http(s) is
// declined before anyone sees it.
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ElicitationRequest } from '../../../src/mcp/elicitation.js';
import { elicitationPolicy } from '../../../src/runtime/mcpElicitation.js';
import { runPath } from '../../../src/runtime/runSelection.js';
import { mcpToolsOf } from '../../../src/tools/mcpTools.js';
import type { ToolContext } from '../../../src/tools/types.js';
import { hasToolResults } from '../../support/loopbackModel.js';
import { lastUser } from '../../support/wireBody.js';
import { text, until } from '../delegate/helpers.js';
import { tempTree } from '../../helpers/tempTree.js';
import { mainTrusting, managerFor, mcpFixture, nodeServer, offlineWith } from './helpers.js';

const sdk = (p: string) => pathToFileURL(resolve('node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;

/** `link` asks to visit a page; `done` asks too and, when the test creates `<out>.go`,
 * says the step finished; `bad` asks to open a file: URL. Each answer is written to `out`. */
const serverScript = (out: string) => `
import { renameSync, watch, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { McpServer } from '${sdk('server/mcp.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
const server = new McpServer({ name: 'links', version: '1' });
const ask = async (url, elicitationId) => {
  const r = await server.server.elicitInput({ mode: 'url', message: 'Connect your Acme account\\u001b[2J', url, elicitationId });
  // Written whole, then renamed: the test waits for the file to exist and reads it at once.
  writeFileSync(${JSON.stringify(out + '.tmp')}, JSON.stringify(r));
  renameSync(${JSON.stringify(out + '.tmp')}, ${JSON.stringify(out)});
  return { content: [{ type: 'text', text: 'answered ' + r.action }] };
};
server.registerTool('link', { description: 'asks to visit a page' }, () => ask('https://acme.example/connect?state=1', 'e-link'));
server.registerTool('bad', { description: 'asks to open a file' }, () => ask('file:///etc/passwd', 'e-bad'));
server.registerTool('done', { description: 'asks, then finishes on its own' }, () => {
  // The test says when the step is done by creating \`\${out}.go\` (watched, not polled).
  const watcher = watch(dirname(${JSON.stringify(out)}), (_e, name) => {
    if (name !== basename(${JSON.stringify(out)}) + '.go') return;
    watcher.close();
    void server.server.createElicitationCompletionNotifier('e-done')();
  });
  return ask('https://acme.example/pay', 'e-done');
});
await server.connect(new StdioServerTransport());
`;

function setup() {
  const dir = tempTree('links', {});
  const paths = { script: join(dir, 'links.mjs'), out: join(dir, 'answer.json'), browser: join(dir, 'browser.sh') };
  writeFileSync(paths.script, serverScript(paths.out));
  // The "browser": records its environment and the URL it was given.
  writeFileSync(
    paths.browser,
    `#!/bin/sh\nenv > "${dir}/env.txt"\nprintf %s "$1" > "${dir}/url.tmp"\nmv "${dir}/url.tmp" "${dir}/url.txt"\n`,
  );
  chmodSync(paths.browser, 0o755);
  const answered = async (): Promise<unknown> => {
    await until(() => existsSync(paths.out), 15000, 'the server to be answered');
    const r = JSON.parse(readFileSync(paths.out, 'utf8'));
    rmSync(paths.out);
    return r;
  };
  return { dir, paths, answered };
}

const call = (name: string, id: string, args: object = {}) => ({ kind: 'tools' as const, calls: [{ id, name, args }] });

describe('URL-mode elicitation', () => {
  it("a child's request is queued with its path, opened only on the operator's choice, and answered", async () => {
    const { dir, paths, answered } = setup();
    const fx = await mcpFixture({
      interactive: true,
      env: { BROWSER: paths.browser },
      config: () => `${nodeServer('links', [paths.script])}${mainTrusting(['links'], 'delegation_policy = { mode = "allow" }')}`,
      agents: {
        main: (req) => {
          const user = lastUser(req.body);
          if (user === 'child task') return hasToolResults(req.body) ? text('child done') : call('mcp__links__link', 'c1');
          if (user === 'finish') return hasToolResults(req.body) ? text('finished') : call('mcp__links__done', 'd1');
          return hasToolResults(req.body) ? text('root done') : call('spawn_subagent', 's1', { prompt: 'child task' });
        },
      },
    });
    const rt = fx.runtime;
    const pending = () => rt.store.getState().controls.elicitations ?? [];

    const turn = rt.startTurn('go');
    await until(() => pending().length === 1, 30000, 'the URL request to be queued');
    const req = pending()[0];
    expect(req).toMatchObject({
      server: 'links',
      mode: 'url',
      url: 'https://acme.example/connect?state=1',
      fields: [],
      attribution: 'call',
    });
    expect(req.message).toContain('Connect your Acme account');
    expect(req.message).not.toContain('\u001b');
    expect(runPath(rt.store.getState(), req.runId).join(' › ')).toMatch(/^main › main#\d+$/);
    // Nothing was opened by itself.
    expect(existsSync(join(dir, 'url.txt'))).toBe(false);

    rt.openElicitationUrl!(req.id);
    await until(() => existsSync(join(dir, 'url.txt')), 10000, 'the browser to be started');
    expect(readFileSync(join(dir, 'url.txt'), 'utf8')).toBe('https://acme.example/connect?state=1');
    const browserEnv = readFileSync(join(dir, 'env.txt'), 'utf8');
    expect(browserEnv).not.toContain('OPENAI_API_KEY');
    expect(browserEnv).not.toContain('sk-openai-secret-value');
    expect(browserEnv).not.toContain('bearer-secret-value');
    // Still waiting for the operator, now marked opened.
    expect(pending()).toEqual([expect.objectContaining({ id: req.id, opened: true })]);

    rt.answerElicitation!(req.id, { action: 'accept', content: {} });
    expect(await answered()).toEqual({ action: 'accept' });
    await turn;
    expect(pending()).toEqual([]);

    // The server's completion notice answers a request still waiting.
    const second = rt.startTurn('finish');
    await until(() => pending().length === 1, 30000, 'the second URL request to be queued');
    writeFileSync(`${paths.out}.go`, '');
    expect(await answered()).toEqual({ action: 'accept' });
    await second;
    expect(pending()).toEqual([]);
    const notices = rt.store.getState().transcript.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
    expect(notices).toContain('MCP server links says the page step is finished.');
  }, 90_000);

  it('headless declines, --yes included; a URL that is not http(s) never reaches the handler', async () => {
    const { dir, paths } = setup();
    const env = { PATH: process.env.PATH ?? '', HOME: dir, BROWSER: paths.browser };
    const m = managerFor(offlineWith(nodeServer('links', [paths.script])), dir, env, join(dir, 'c.toml'));
    const notices: string[] = [];
    const seen: ElicitationRequest[] = [];
    const policy = elicitationPolicy({ autoYes: true, notice: (_l, t) => notices.push(t) });
    m.setElicitationHandler((req, signal) => (seen.push(req), policy(req, signal)));
    m.startAll();
    expect(await m.waitFor(['links'])).toEqual([]);
    const ctx = {
      signal: new AbortController().signal,
      tracker: { recordAction: () => undefined, recordCostUsd: () => {}, costExceeded: () => undefined },
    } as unknown as ToolContext;
    const tool = (name: string) => mcpToolsOf(m, ['links']).find((t) => t.name === `mcp__links__${name}`)!;

    expect((await tool('link').run({}, ctx)).output).toBe('answered decline');
    expect(seen[0]).toMatchObject({ mode: 'url', url: 'https://acme.example/connect?state=1', elicitationId: 'e-link' });
    expect(notices).toEqual([
      'MCP server links asked to have a page visited, but a URL needs a person: declined (headless declines URL requests, --yes included).',
    ]);
    expect((await tool('bad').run({}, ctx)).output).toBe('answered decline');
    expect(seen).toHaveLength(1);
    expect(existsSync(join(dir, 'url.txt'))).toBe(false);
  }, 60_000);
});
