// End to end: sessions as a Claude Code or gemini-cli user expects them (-c, the --resume
// picker, /clear starting a new session, the quit hint), and everyday screen behaviour
// (closing a pane, notices at 60 columns, the offline model after a runaway turn).
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText } from '../support/loopbackModel.js';
import { disposeAllTerminals, startTerminal } from '../support/terminal.js';
import { runArbor, spawnArbor } from '../support/runArbor.js';
import { until } from '../support/until.js';
import {
  PROCESS_TEST_TIMEOUT,
  PTY_TEST_TIMEOUT,
  READY,
  START_TIMEOUT,
  sandbox,
  send,
  quit,
  RESUME_HINT,
  ptyTest,
  slowFirstReply,
} from './sandbox.js';
import { requestOf } from '../support/wireRequest.js';

afterEach(async () => {
  await disposeAllTerminals();
});

describe('sessions', () => {
  ptyTest('-c continues the newest session started in this directory, not a newer one elsewhere', PTY_TEST_TIMEOUT * 1.5, async (sb) => {
    const other = join(sb.h.dir, '..', 'elsewhere');
    mkdirSync(other, { recursive: true });
    const here = await startTerminal({ env: sb.h.env, cwd: sb.h.dir });
    await here.waitForText(READY, START_TIMEOUT);
    await here.waitForRawMode(START_TIMEOUT);
    await send(here, 'alpha question from here');
    await here.waitForText('You said: "alpha question from here"', 8000);
    await quit(here);
    // Newer, but in another directory.
    const r = await runArbor(['-p', 'beta question from elsewhere'], { env: sb.h.env, cwd: other });
    expect(r.code).toBe(0);

    const term = await sb.startArbor(['-c']);
    await term.waitForText('alpha question from here', 5000);
    expect(term.scrollback()).not.toContain('beta question');
    await send(term, 'and more');
    await term.waitForText('You said: "and more"', 8000);

    const none = await runArbor(['-c', '-p', 'x'], { env: sb.h.env, cwd: join(sb.h.dir, '..', 'home') });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no session was started in');
  });

  ptyTest('--resume with no id opens a picker: typing filters, Enter resumes the chosen session', PTY_TEST_TIMEOUT * 1.5, async (sb) => {
    for (const text of ['first topic: gardening', 'second topic: sailing', 'third topic: baking']) {
      const r = await sb.arbor(['-p', text]);
      expect(r.code).toBe(0);
    }
    const term = await startTerminal({ args: ['--resume'], env: sb.h.env, cwd: sb.h.dir, cols: 120, rows: 30 });
    await term.waitForText('Resume a session', START_TIMEOUT);
    await term.waitForRawMode(START_TIMEOUT);
    await term.waitForText('[headless] second topic: sailing', 5000, { where: 'screen' });
    term.type('sail');
    await term.waitFor(
      (s) => s.includes('1 of 3') && s.includes('sailing') && !s.includes('gardening') && !s.includes('baking'),
      'the filtered list',
      5000,
    );
    term.press('enter');
    await term.waitForText(READY, START_TIMEOUT, { where: 'screen' });
    await term.waitForText('You said: "second topic: sailing"', 5000);
    expect(term.scrollback()).not.toContain('gardening');
  });

  ptyTest(
    '/clear starts a new session: after quitting, --resume shows no cleared text and sends none to the model',
    PTY_TEST_TIMEOUT * 2,
    async (sb) => {
      const m = await sb.withModel((req) => ({ kind: 'text', chunks: [`reply to ${lastUserText(req.body)}`] }));
      const term = await sb.startArbor();
      await send(term, 'alpha secret plan');
      await term.waitForText('reply to alpha secret plan', 8000);
      await term.waitForText(READY, 5000, { where: 'screen' });
      await send(term, '/clear');
      await term.waitForText('Conversation cleared', 5000);
      await send(term, 'gamma');
      await term.waitForText('reply to gamma', 8000);
      const id = await quit(term);

      const resumed = await sb.startArbor(['--resume', id]);
      await resumed.waitForText('reply to gamma', 5000);
      expect(resumed.scrollback()).not.toContain('alpha');
      await send(resumed, 'delta');
      await resumed.waitForText('reply to delta', 8000);
      const body = JSON.stringify(requestOf(m.requests[m.requests.length - 1].body).messages);
      expect(body).toContain('gamma');
      expect(body).toContain('delta');
      expect(body).not.toContain('alpha');
    },
  );

  ptyTest(
    'quitting prints how to resume the session; a chat with nothing in it leaves no session and no hint',
    PTY_TEST_TIMEOUT * 1.5,
    async (sb) => {
      const empty = await sb.startArbor();
      empty.press('ctrl-d');
      await empty.waitForExit(10000);
      await empty.flush();
      expect(empty.scrollback()).not.toMatch(RESUME_HINT);
      const none = await sb.arbor(['-p', '-'], '');
      expect(none.code).toBe(2);
      const list = await sb.arbor(['-c', '-p', 'anything']);
      expect(list.stderr).toContain('no session was started');

      const term = await sb.startArbor();
      await send(term, 'remember this');
      await term.waitForText('You said: "remember this"', 8000);
      const id = await quit(term);
      const again = await sb.startArbor(['--resume', id.slice(0, 17)]);
      await again.waitForText('remember this', 5000);
    },
  );
});

/** Everything the session files under `home` hold so far. */
function sessionsText(home: string): string {
  const dir = join(home, 'sessions');
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

describe('resume notices', () => {
  ptyTest('resuming a session whose last turn was cut off (arbor killed mid-reply) says so', PTY_TEST_TIMEOUT * 1.5, async (sb) => {
    await sb.withModel(slowFirstReply(80, 'fresh answer'));
    const term = await sb.startArbor();
    await send(term, 'a long question');
    await term.waitForText('w3', 8000);
    // Past the 2 s flush: the question is on disk, the answer never will be.
    await until(() => sessionsText(sb.h.home).includes('a long question'), 8000, 'the question flushed to the session file');
    term.kill('SIGKILL');
    await term.waitForExit(5000);
    const resumed = await sb.startArbor(['-c']);
    await resumed.waitForText('The last turn of this session was cut off', 5000);
    await resumed.waitForText('a long question', 5000);
    await send(resumed, 'again please');
    await resumed.waitForText('fresh answer', 8000);
  });
});

describe('in the chat', () => {
  ptyTest('/resume opens the picker inside the chat; Enter continues the chosen session there', PTY_TEST_TIMEOUT * 1.5, async (sb) => {
    for (const text of ['old topic: kites', 'old topic: tides']) expect((await sb.arbor(['-p', text])).code).toBe(0);
    const term = await sb.startArbor([], { cols: 120, rows: 30 });
    await send(term, 'current topic: clouds');
    await term.waitForText('You said: "current topic: clouds"', 8000);
    await term.waitForText(READY, 5000, { where: 'screen' });
    await send(term, '/resume');
    await term.waitForText('Resume a session', 5000, { where: 'screen' });
    term.type('kites');
    await term.waitFor((s) => s.includes('1 of 2') && s.includes('kites'), 'the filtered picker', 5000);
    term.press('enter');
    await term.waitForText('You said: "old topic: kites"', 8000, { where: 'screen' });
    await term.waitForText(READY, 8000, { where: 'screen' });
    await send(term, 'back to kites');
    await term.waitForText('You said: "back to kites"', 8000);
    const id = await quit(term);
    // The chat we left is still saved, and the resumed one got the new message.
    const again = await sb.startArbor(['--resume', id]);
    await again.waitForText('back to kites', 5000);
    expect(again.scrollback()).not.toContain('clouds');
  });

  ptyTest('/model opens a picker of the configured providers and switches the agent for this session', PTY_TEST_TIMEOUT, async (sb) => {
    const m = await sb.withModel(
      () => ({ kind: 'text', chunks: ['from the loopback model'] }),
      '\n[providers.demo]\ntype = "offline"\nmodel = "demo-offline"\n',
    );
    const term = await sb.startArbor([], { cols: 100, rows: 30 });
    await send(term, '/model');
    await term.waitForText('Model for main', 5000, { where: 'screen' });
    await term.waitFor(
      (s) => /fake\s+openai-compatible\/fake-model\s+\(current\)/.test(s) && /demo\s+offline\/demo-offline/.test(s),
      'both providers, the current one marked',
      5000,
    );
    term.type('demo');
    term.press('enter');
    await term.waitForText('main now uses demo (offline/demo-offline)', 5000);
    await term.waitForText('offline/demo-offline', 5000, { where: 'screen' });
    await send(term, 'who answers?');
    await term.waitForText('[offline model] You said: "who answers?"', 8000);
    expect(m.requests).toHaveLength(0);
  });

  ptyTest(
    '/lang is kept in $ARBOR_HOME/state.json and says so; the next start speaks that language',
    PTY_TEST_TIMEOUT * 1.5,
    async (sb) => {
      const term = await sb.startArbor([], { cols: 140, rows: 30 });
      await send(term, '/lang es');
      await term.waitForText(`guardado en ${sb.h.home}/state.json`, 5000);
      term.press('ctrl-d');
      await term.waitForExit(10000);
      const { statSync } = await import('node:fs');
      expect(statSync(`${sb.h.home}/state.json`).mode & 0o777).toBe(0o600);
      const next = await startTerminal({ env: sb.h.env, cwd: sb.h.dir });
      await next.waitForText('Escribe un mensaje', START_TIMEOUT);
    },
  );
});

describe('everyday screen', () => {
  ptyTest('after a runaway turn the offline model answers the next message normally', PTY_TEST_TIMEOUT, async (sb) => {
    sb.h.env.ARBOR_OFFLINE_CHILD_DELAY_MS = '0';
    const term = await sb.startArbor();
    await send(term, 'runaway: explore everything');
    await term.waitForText('Runaway round finished', 15000);
    await term.waitForText(READY, 8000, { where: 'screen' });
    await send(term, 'hello after the storm');
    await term.waitForText('[offline model] You said: "hello after the storm"', 8000);
    expect(term.scrollback()).not.toContain('Done: hello after the storm');
  });

  ptyTest(
    'closing /agents or the viewer leaves the last screenful of chat in place, and the viewer opens on a clean screen',
    PTY_TEST_TIMEOUT * 1.5,
    async (sb) => {
      const term = await sb.startArbor([], { cols: 100, rows: 24 });
      for (let i = 1; i <= 4; i++) {
        await send(term, `message number ${i}`);
        await term.waitForText(`You said: "message number ${i}"`, 8000);
        await term.waitForText(READY, 5000, { where: 'screen' });
      }
      const chatVisible = (s: string) =>
        s.includes('You said: "message number 4"') && s.includes('runaway: explore everything') && s.includes(READY);
      await term.waitFor(chatVisible, 'the chat before opening a pane', 5000);

      await send(term, '/agents');
      await term.waitForText('Agents', 5000, { where: 'screen' });
      term.press('esc');
      await term.waitFor(chatVisible, 'the last screenful of chat after closing /agents', 5000);

      term.press('ctrl-o');
      await term.waitForText('Transcript', 5000, { where: 'screen' });
      await term.flush();
      // Nothing but blank rows above the viewer's header: no stale chat lines.
      const rowsAbove = term.screen().split('\n');
      const headerRow = rowsAbove.findIndex((l) => l.includes('Transcript'));
      expect(headerRow).toBeGreaterThanOrEqual(0);
      expect(headerRow).toBeLessThanOrEqual(1);
      expect(rowsAbove.slice(0, headerRow).every((l) => l.trim() === '')).toBe(true);
      term.press('esc');
      await term.waitFor(chatVisible, 'the last screenful of chat after closing the viewer', 5000);
      const screen = term.screen();
      expect(screen.split('\n').filter((l) => l.trim() !== '').length).toBeGreaterThan(15);
    },
  );

  ptyTest('a runaway banner wraps at 60 columns instead of being cut', PTY_TEST_TIMEOUT, async (sb) => {
    sb.h.env.ARBOR_OFFLINE_CHILD_DELAY_MS = '2000';
    const { writeConfig } = await import('../support/tempHome.js');
    writeConfig(sb.h.dir, '[delegation.runaway]\nmax_tree_size = 3\non_trip = "pause_tree"\n');
    const term = await sb.startArbor([], { cols: 60, rows: 30 });
    await send(term, 'fan out 5: count');
    // The whole banner, including its last words, is on screen while the tree is paused.
    await term.waitFor(
      (s) => s.includes('Runaway guard') && /Paused runs\s+keep\s+their\s+state\./.test(s.replace(/\n\s*/g, ' ')),
      'the whole banner',
      10000,
    );
    const lines = term.screen().split('\n');
    expect(lines.every((l) => l.length <= 60)).toBe(true);
  });
});

describe.concurrent('session files', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('an empty prompt on stdin exits 2 and leaves no session behind', async (ctx) => {
    const sb = sandbox(ctx);
    const r = await sb.arbor(['-p', '-'], '');
    expect(r.code).toBe(2);
    const { existsSync, readdirSync } = await import('node:fs');
    const dir = `${sb.h.home}/sessions`;
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('--resume ignores a newer file that has no valid session header and never appends to it', async (ctx) => {
    const sb = sandbox(ctx);
    const first = await sb.arbor(['-p', 'the real session']);
    expect(first.code).toBe(0);
    const { readFileSync, utimesSync, writeFileSync } = await import('node:fs');
    const junk = `${sb.h.home}/sessions/29991231-235959-ffffff.jsonl`;
    writeFileSync(junk, 'not a session\n');
    utimesSync(junk, Date.now() / 1000 + 100, Date.now() / 1000 + 100);
    const r = await sb.arbor(['--resume', '-p', 'continued']);
    expect(r.code).toBe(0);
    expect(readFileSync(junk, 'utf8')).toBe('not a session\n');
    const listed = await sb.arbor(['-c', '-p', 'again']);
    expect(listed.code).toBe(0);
  });

  it('a read-only or impossible ARBOR_HOME is reported as not writable, naming it', async (ctx) => {
    const sb = sandbox(ctx);
    const { writeFileSync } = await import('node:fs');
    const file = `${sb.h.home}/not-a-dir`;
    writeFileSync(file, 'x');
    const r = await runArbor(['-p', 'hi'], { env: { ...sb.h.env, ARBOR_HOME: `${file}/home` }, cwd: sb.h.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`ARBOR_HOME ${file}/home is not writable`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('headless: when the runaway guard kills the tree itself, it says the guard did', async (ctx) => {
    const sb = sandbox(ctx);
    const { writeConfig } = await import('../support/tempHome.js');
    writeConfig(sb.h.dir, '[delegation.runaway]\nmax_tree_size = 4\non_trip = "pause_tree"\n');
    const r = await sb.arbor(['-p', 'runaway: keep going']);
    expect(r.stderr).toContain("the guard killed the tree's children itself");
    expect(r.stderr).not.toContain('killed by the user');
    expect(r.stdout).toContain('killed by the runaway guard');
    expect(r.stdout).not.toContain('killed by the operator');
  });

  it('headless Ctrl+C prints one line', async (ctx) => {
    const sb = sandbox(ctx);
    const m = await sb.withModel(() => ({ kind: 'text', chunks: Array.from({ length: 100 }, (_, i) => `w${i} `), delayMs: 100 }));
    const run = spawnArbor(['-p', 'talk'], { env: sb.h.env, cwd: sb.h.dir, ctx });
    // Interrupt once the turn is under way (the model has the request), as a person would.
    await until(() => m.requests.length > 0, 20000, 'the model to get the request');
    expect(m.requests.length).toBe(1);
    run.child.kill('SIGINT');
    expect(await run.closed).toBe(130);
    expect(run.stderr().trim().split('\n')).toEqual(['arbor: SIGINT received: stopped every run and saved the session.']);
  });
});
