// A server's URL-mode request in the chat (a real pty, the built app): an SDK MCP server
// over stdio whose tool asks the operator to visit a page. The prompt shows the message
// (its escape neutralised) and the URL; nothing opens it by itself; "I've done it" sends
// accept; a second request is declined with Ctrl+X. Headless (-p) declines, --yes included.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeAllTerminals } from '../support/terminal.js';
import { sandbox, send, ptyTest } from './sandbox.js';
import { answered, chatUntilAsked, elicitingServer } from './elicitingServer.js';
import { messagesOf } from '../support/wireBody.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const LINK = `{
    mode: 'url',
    message: 'Connect your Acme account\\u001b[2J',
    url: 'https://acme.example/connect?state=42',
    elicitationId: 'e-42',
  }`;
const LINKS = { name: 'links', tool: 'connect', description: 'asks to visit a page', request: LINK };

describe.runIf(process.platform === 'linux')('MCP URL requests in the chat', () => {
  ptyTest('headless declines a URL request even with --yes, and says why', 60000, async (sb) => {
    const { out, toml } = elicitingServer(sb.h.dir, LINKS);
    await sb.withModel(({ body }) => {
      if (messagesOf(body).at(-1)?.role === 'tool') return { kind: 'text', chunks: ['link done'] };
      return { kind: 'tools', calls: [{ id: 'c1', name: 'mcp__links__connect', args: {} }] };
    }, toml);
    const r = await sb.arbor(['-p', 'connect it', '--yes']);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ action: 'decline' });
    expect(r.stderr).toContain(
      'MCP server links asked to have a page visited, but a URL needs a person: declined (headless declines URL requests, --yes included).',
    );
  });

  it('shows the message and the URL; "I\'ve done it" accepts; Ctrl+X declines', { timeout: 150000 }, async (ctx) => {
    const sb = sandbox(ctx);
    const { term, out } = await chatUntilAsked(sb, LINKS, {
      prompt: 'connect it',
      shown: 'MCP link: server links asks main to visit a page',
      done: 'link done',
    });
    await term.waitForText('Connect your Acme account', 5000);
    await term.waitForText('URL:', 5000);
    await term.waitForText('https://acme.example/connect?state=42', 5000);
    await term.waitForText('[Open in browser]', 5000);
    await term.waitForText("[I've done it]", 5000);
    expect(term.screen()).not.toContain('\u001b[2J');
    // Down to "I've done it", Enter: accept.
    term.press('down');
    term.press('enter');
    expect(await answered(term, out)).toEqual({ action: 'accept' });
    await term.waitForText('link done', 30000);

    await send(term, 'again');
    await term.waitForText('MCP link: server links asks main to visit a page', 30000);
    term.type('\u0018');
    expect(await answered(term, out)).toEqual({ action: 'decline' });
    await term.waitForText('answered decline', 30000, { where: 'all' });
  });
});
