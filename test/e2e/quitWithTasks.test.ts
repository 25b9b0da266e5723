// Quitting the chat with a background task running asks first: quit anyway (recorded
// lost), wait, cancel, or stay; a second quit key quits anyway.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { disposeAllTerminals, type Term } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, sandbox, send, type Sandbox, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const QUESTION = 'A background task is still running.';

function record(sb: Sandbox): { status: string; error: string | null } {
  const [file] = readdirSync(join(sb.h.home, 'tasks'));
  return JSON.parse(readFileSync(join(sb.h.home, 'tasks', file), 'utf8'));
}

async function startWithTask(sb: Sandbox, childDelayMs: number): Promise<Term> {
  sb.h.env.ARBOR_OFFLINE_CHILD_DELAY_MS = String(childDelayMs);
  const term = await sb.startArbor([], { cols: 120, rows: 30 });
  await send(term, 'delegate in background to researcher: dig into caching');
  await term.waitForText("Background task started for agent 'researcher'.", 20000);
  await term.waitForText('Type a message', 20000, { where: 'screen' });
  term.press('ctrl-d');
  await term.waitForText(QUESTION, 10000, { where: 'screen' });
  return term;
}

describe('quitting with background tasks running', () => {
  ptyTest('q quits and records the task lost', PTY_TEST_TIMEOUT, async (sb) => {
    const term = await startWithTask(sb, 600000);
    term.type('q');
    await term.waitForExit(15000);
    expect(record(sb)).toMatchObject({ status: 'lost' });
  });

  ptyTest('a second Ctrl+D quits anyway; Ctrl+C too', PTY_TEST_TIMEOUT * 1.5, async (sb, ctx) => {
    const term = await startWithTask(sb, 600000);
    term.press('ctrl-d');
    await term.waitForExit(15000);
    expect(record(sb).status).toBe('lost');
    const sb2 = sandbox(ctx);
    const term2 = await startWithTask(sb2, 600000);
    term2.press('ctrl-c');
    await term2.waitForExit(15000);
    expect(record(sb2).status).toBe('lost');
  });

  ptyTest('c cancels the task, then quits', PTY_TEST_TIMEOUT, async (sb) => {
    const term = await startWithTask(sb, 600000);
    term.type('c');
    await term.waitForExit(15000);
    expect(record(sb).status).toBe('cancelled');
  });

  ptyTest('Esc stays in the chat; w waits for the task, then quits', PTY_TEST_TIMEOUT * 1.5, async (sb) => {
    const term = await startWithTask(sb, 5000);
    term.press('esc');
    await term.waitForNoText(QUESTION, 10000);
    await term.waitForText('Type a message', 10000, { where: 'screen' });
    term.press('ctrl-d');
    await term.waitForText(QUESTION, 10000, { where: 'screen' });
    term.type('w');
    await term.waitForExit(30000);
    expect(record(sb).status).toBe('completed');
  });
});
