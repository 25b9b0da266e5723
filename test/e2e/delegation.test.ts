// Delegation with no model at all: the built-in starter config (main, researcher, reviewer)
// and the offline model, which delegates on documented phrasings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { jsonLines } from '../support/runArbor.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

describe('delegation with the offline model', () => {
  ptyTest(
    'foreground, parallel and background delegation; the background end is announced in the chat',
    PTY_TEST_TIMEOUT * 2,
    async (sb) => {
      sb.h.env.ARBOR_OFFLINE_CHILD_DELAY_MS = '300';
      const term = await sb.startArbor([], { cols: 120, rows: 40 });

      await send(term, 'delegate to reviewer: check the plan');
      await term.waitForText('Done: check the plan', 20000);
      await term.waitForText(/delegate.*reviewer/);

      await send(term, 'delegate in parallel to researcher, reviewer: compare options');
      await term.waitForText(/researcher.*reviewer|reviewer.*researcher/, 20000);
      await term.waitForText(/2 of 2|success=true|Done: compare options/, 20000);

      await send(term, 'delegate in background to researcher: dig into caching');
      await term.waitForText("Background task started for agent 'researcher'.", 20000);
      // the notice comes from the runtime's outcome when the detached task ends
      await term.waitForText(/Background task [0-9a-f]{8} \(researcher\) completed/, 20000);
      await term.waitForText('Done: dig into caching');
    },
  );

  ptyTest('fan out: three subagents run and the summary counts them', PTY_TEST_TIMEOUT, async (sb) => {
    const term = await sb.startArbor([], { cols: 120, rows: 40 });
    await send(term, 'fan out 3: summarize each file');
    await term.waitForText('Fan-out finished: 3 of 3 succeeded, 0 failed.', 20000);
    for (const i of [1, 2, 3]) expect(term.scrollback()).toContain(`summarize each file (part ${i} of 3)`);
  });
});

describe('trace log', () => {
  ptyTest('records each child run under its own session key with its parent, and no prompt text', PTY_TEST_TIMEOUT, async (sb) => {
    const r = await sb.arbor(['-p', 'fan out 2: secret-ish task words']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Fan-out finished: 2 of 2 succeeded');
    const log = readFileSync(join(sb.h.home, 'logs', 'arbor.log'), 'utf8');
    const lines = jsonLines(log);
    const started = lines.filter((l) => l.event === 'run_started');
    const root = started.find((l) => !l.parent_run_id)!;
    const children = started.filter((l) => l.parent_run_id === root.run_id);
    expect(children).toHaveLength(2);
    for (const c of children) {
      expect(c.agent_alias).toBe('main');
      expect(c.session_key).toMatch(/^subagent-/);
      expect(c.session_key).not.toBe(root.session_key);
    }
    expect(lines.filter((l) => l.event === 'tool_finished' && l.tool === 'spawn_subagent')).toHaveLength(2);
    expect(log).not.toContain('secret-ish');
  });
});
