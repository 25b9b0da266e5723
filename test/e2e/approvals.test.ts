// Approvals as a person meets them: a tool call that changes things asks in the terminal;
// y allows once, a allows for the session, n denies. Children never ask.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { firstUser, toolResults } from '../support/wireBody.js';
import { PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';
import { messagesOf, textOf } from '../support/wireBody.js';

afterEach(async () => {
  await disposeAllTerminals();
});

/** Each user message makes the model write one file named after the message. */
function writesFileNamedAfterMessage({ body }: LoopbackIncoming): LoopbackReply {
  const msgs = messagesOf(body);
  const last = msgs[msgs.length - 1];
  if (last?.role === 'tool') return { kind: 'text', chunks: [`result: ${String(last.content).slice(0, 40)}`] };
  const text = textOf(last?.content);
  return { kind: 'tools', calls: [{ id: `w${msgs.length}`, name: 'write_file', args: { path: `${text}.txt`, content: text } }] };
}

describe('approvals in the terminal', () => {
  ptyTest('asks before write_file; y allows once, n denies, a allows for the session', PTY_TEST_TIMEOUT * 2, async (sb) => {
    await sb.withModel(writesFileNamedAfterMessage);
    const term = await sb.startArbor();

    await send(term, 'alpha');
    await term.waitForText('Approval needed');
    await term.waitForText('write_file');
    await term.waitForText('alpha.txt');
    term.type('y');
    await term.waitForText("result: Wrote 5 bytes to 'alpha.txt'");
    expect(readFileSync(join(sb.h.dir, 'alpha.txt'), 'utf8')).toBe('alpha');
    await term.waitForNoText('Approval needed');

    await send(term, 'beta');
    await term.waitForText('Approval needed');
    term.type('n');
    await term.waitForText(/result: The operator denied/);
    expect(existsSync(join(sb.h.dir, 'beta.txt'))).toBe(false);

    await send(term, 'gamma');
    await term.waitForText('Approval needed');
    term.type('a');
    await term.waitForText("result: Wrote 5 bytes to 'gamma.txt'");
    // allowed for the session: the next write does not ask
    await send(term, 'delta');
    await term.waitForText("result: Wrote 5 bytes to 'delta.txt");
    expect(term.screen()).not.toContain('Approval needed');
    expect(readFileSync(join(sb.h.dir, 'delta.txt'), 'utf8')).toBe('delta');
  });

  ptyTest('a child never asks: its write is denied and the parent reads why', PTY_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(({ body }) => {
      if (firstUser(body) === 'child writes') {
        if (toolResults(body).length) return { kind: 'text', chunks: [`child saw: ${toolResults(body)[0].content}`] };
        return { kind: 'tools', calls: [{ id: 'cw', name: 'write_file', args: { path: 'child.txt', content: 'x' } }] };
      }
      if (toolResults(body).length) return { kind: 'text', chunks: ['parent done'] };
      return { kind: 'tools', calls: [{ id: 'sp', name: 'spawn_subagent', args: { prompt: 'child writes' } }] };
    });
    const term = await sb.startArbor();
    await send(term, 'go');
    await term.waitForText('parent done');
    expect(term.scrollback()).not.toContain('Approval needed');
    expect(existsSync(join(sb.h.dir, 'child.txt'))).toBe(false);
    expect(term.scrollback()).toMatch(/child saw: Tool 'write_file' requires operator approval/);
  });
});
