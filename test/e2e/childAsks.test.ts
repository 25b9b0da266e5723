// Children that ask, as a person meets them ([delegation] subagent_approvals = "ask"): a
// child's write_file or shell call waits for the operator, who answers it from the prompt
// or from its marked row in /agents. The built app in a real pty, the model a loopback.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { firstUser, toolResults } from '../support/wireBody.js';
import { PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const ASK = '\n[delegation]\nsubagent_approvals = "ask"\n';

/** The root spawns one child; the child makes `call`, then reports what it read. */
function childMakes(call: { name: string; args: object }) {
  return ({ body }: LoopbackIncoming): LoopbackReply => {
    if (firstUser(body) === 'child works') {
      if (toolResults(body).length) return { kind: 'text', chunks: [`child saw: ${String(toolResults(body)[0].content).slice(0, 60)}`] };
      return { kind: 'tools', calls: [{ id: 'cw', ...call }] };
    }
    if (toolResults(body).length) return { kind: 'text', chunks: ['parent done'] };
    return { kind: 'tools', calls: [{ id: 'sp', name: 'spawn_subagent', args: { prompt: 'child works' } }] };
  };
}

describe("a child's ask in the terminal", () => {
  ptyTest('is answered from the prompt: label, path and arguments shown, y allows it once', PTY_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(childMakes({ name: 'write_file', args: { path: 'child.txt', content: 'from the child' } }), ASK);
    const term = await sb.startArbor();
    await send(term, 'go');
    await term.waitForText('main#1 wants to use write_file');
    await term.waitForText('in main › main#1');
    await term.waitForText('"path": "child.txt"');
    await term.waitForText('[c] allow for this child');
    await term.waitForText('[t] allow for the whole tree this turn');
    await term.waitForText('⚑ 1 ask waiting');
    expect(existsSync(join(sb.h.dir, 'child.txt'))).toBe(false);
    term.type('y');
    await term.waitForText('parent done');
    expect(readFileSync(join(sb.h.dir, 'child.txt'), 'utf8')).toBe('from the child');
    await term.waitForNoText('Approval needed');
    expect(term.screen()).not.toContain('ask waiting');
  });

  ptyTest('is answered from /agents: Enter on the marked row, then t allows it for the tree', PTY_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(childMakes({ name: 'shell', args: { command: 'echo ran > shell.txt' } }), ASK);
    const term = await sb.startArbor();
    await send(term, 'go');
    await term.waitForText('main#1 wants to use shell');
    term.press('ctrl-t');
    await term.waitForText('⚑ awaiting approval');
    await term.waitForText('on its ⚑ row in /agents answers it');
    // The pane has the keys: y is nothing here, the ask still waits.
    term.type('y');
    await term.waitForText('1/2');
    term.type('j');
    await term.waitForText('2/2');
    await term.waitForText('Enter answer ask');
    expect(existsSync(join(sb.h.dir, 'shell.txt'))).toBe(false);
    term.press('enter');
    await term.waitForText('[t] allow for the whole tree this turn');
    term.type('t');
    await term.waitForNoText('Approval needed');
    // The child ran its command and finished; close the pane and read the parent's answer.
    await term.waitForText('✓ completed');
    expect(readFileSync(join(sb.h.dir, 'shell.txt'), 'utf8').trim()).toBe('ran');
    term.press('esc');
    await term.waitForText('parent done');
  });
});
