// Keys that reach arbor in one read, as tmux send-keys, a slow SSH link or a busy moment
// deliver them: each burst below is written to the pty in ONE write, and the screen (or
// the model's request) shows that every key acted.
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText } from '../support/loopbackModel.js';
import { arborBin } from '../support/paths.js';
import { until } from '../support/until.js';
import { disposeAllTerminals, startTerminal, type Term } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, READY, sandbox, send, slowFirstReply, START_TIMEOUT, ptyTest } from './sandbox.js';
// The bench's 200-children tree (a model script and its config), reused as is.
import { openAgentsTree } from '../../bench/workers/agentsTreeScenario.js';
import { AGENTS_BENCH, treeConfig } from '../../bench/workers/agents-tree.js';
import { messagesOf } from '../support/wireBody.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** The input line's text (after the prompt), trailing spaces dropped. */
function inputLine(screen: string): string | undefined {
  return screen
    .split('\n')
    .filter((l) => l.startsWith('› '))
    .at(-1)
    ?.slice(2)
    .trimEnd();
}

function header(screen: string): string | undefined {
  return screen.split('\n').find((l) => l.startsWith('Agents ·'));
}

async function offlineArbor(ctx: Parameters<typeof sandbox>[0]): Promise<Term> {
  return sandbox(ctx).startArbor();
}

describe('bursts in one write, with the offline model', () => {
  // A burst, the line it leaves, what is typed next and what the offline model then echoes.
  it.for([
    { name: 'three Backspaces erase three characters', burst: 'abcdef\x7f\x7f\x7f', line: 'abc', next: '\r', said: 'abc' },
    { name: 'Ctrl+A then typing edits at the start of the line', burst: 'abc\x01zy', line: 'zyabc', next: '\x04\r', said: 'zybc' },
  ])('$name', { timeout: PTY_TEST_TIMEOUT }, async ({ burst, line, next, said }, ctx) => {
    const term = await offlineArbor(ctx);
    term.type(burst);
    await term.waitFor((s) => inputLine(s) === line, `the line to read ${line}`);
    term.type(next);
    await term.waitForText(`[offline model] You said: "${said}"`);
  });

  it('/keys lists the key table by config group', { timeout: PTY_TEST_TIMEOUT }, async (ctx) => {
    const term = await offlineArbor(ctx);
    term.type('/keys\r');
    await term.waitForText('Keys (change one under [keys.<group>] in config.toml):');
    await term.waitForText('[keys.viewer]');
    await term.waitForText('expand_all = ["e"]');
  });

  it('two Ctrl+C quit, and the last frame does not ask for another', { timeout: PTY_TEST_TIMEOUT }, async (ctx) => {
    const term = await offlineArbor(ctx);
    term.type('\x03\x03');
    expect((await term.waitForExit(10000)).exitCode).toBe(0);
    await term.flush();
    expect(term.scrollback()).not.toContain('Press Ctrl+C again');
  });

  ptyTest('a pasted 2,000 lines with Enter and Ctrl+C inside sends nothing until Enter', PTY_TEST_TIMEOUT, async (sb) => {
    const m = await sb.withModel(() => ({ kind: 'text', chunks: ['got it'] }));
    const term = await sb.startArbor();
    const lines = Array.from({ length: 2000 }, (_, i) => `pasted ${i}\x03`);
    term.type(`${PASTE_START}${lines.join('\r')}${PASTE_END}`);
    // The notice is drawn once the whole paste has been read, Enters and Ctrl+Cs inside it
    // included. Had one of them acted, the one request below would hold a part of the paste
    // (or a second request would come), and 2,000 Ctrl+Cs would have quit.
    await term.waitForText('2000 lines, Enter sends them as one message', 10000);
    expect(m.requests).toHaveLength(0);
    expect(term.hasExited).toBe(false);
    term.press('enter');
    await term.waitForText('got it', 10000);
    expect(m.requests).toHaveLength(1);
    const sent = lastUserText(m.requests[0].body);
    expect(sent.split('\n')).toHaveLength(2000);
    expect(sent).toContain('pasted 1999');
    expect(sent).not.toMatch(/[\x03\r]/);
  });
});

describe('bracketed paste mode', () => {
  ptyTest('is on while the chat runs and off again after quitting', PTY_TEST_TIMEOUT, async (sb, ctx) => {
    const script = `"${process.execPath}" "${arborBin}"; echo "arbor-exit=$?"; sleep 30`;
    const term = await startTerminal({ command: '/bin/sh', args: ['-c', script], env: sb.h.env, cwd: sb.h.dir, cols: 100, rows: 30 });
    ctx.onTestFinished(() => term.dispose());
    await term.waitForText(READY, START_TIMEOUT);
    await term.waitFor(() => term.bracketedPaste(), 'bracketed paste to be on');
    term.press('ctrl-d');
    await term.waitForText('arbor-exit=0', 10000);
    expect(term.bracketedPaste()).toBe(false);
  });
});

describe('bursts against a model', () => {
  ptyTest('Esc Esc while a reply streams interrupts it and leaves no ESC in the line', PTY_TEST_TIMEOUT, async (sb) => {
    const m = await sb.withModel(slowFirstReply(60, 'second answer'));
    const term = await sb.startArbor();
    await send(term, 'a long story');
    await term.waitForText('w1 w2', 8000);
    term.type('\x1b\x1b');
    await term.waitForText(/interrupted/i, 5000, { where: 'screen' });
    await term.waitForText(READY, 5000, { where: 'screen' });
    await send(term, 'next');
    await term.waitForText('second answer', 8000);
    expect(lastUserText(m.requests[1].body)).toBe('next');
  });

  ptyTest('Ctrl+O e opens the viewer and expands every card', PTY_TEST_TIMEOUT, async (sb) => {
    await sb.withModel((req) =>
      req.index === 0
        ? { kind: 'tools', calls: [{ id: 'c1', name: 'list_files', args: { path: '.' } }] }
        : { kind: 'text', chunks: ['listed'] },
    );
    const term = await sb.startArbor();
    await send(term, 'list them');
    await term.waitForText('listed', 8000);
    await term.waitForText(READY, 5000, { where: 'screen' });
    term.type('\x0fe');
    await term.waitFor((s) => /^Transcript\s/m.test(s) && s.includes('all expanded'), 'the viewer, all expanded', 8000);
    await term.flush();
    expect(inputLine(term.screen())).toBeUndefined();
  });

  ptyTest('Ctrl+T X y opens the pane and kills the tree', PTY_TEST_TIMEOUT * 2, async (sb) => {
    await sb.withModel(async ({ body }) => {
      const first = messagesOf(body).find((msg) => msg.role === 'user')?.content;
      if (typeof first === 'string' && first.startsWith('job '))
        return { kind: 'text', chunks: Array.from({ length: 600 }, (_, i) => `t${i} `), delayMs: 200 };
      return { kind: 'tools', calls: [1, 2, 3].map((i) => ({ id: `s${i}`, name: 'spawn_subagent', args: { prompt: `job ${i}` } })) };
    }, '\n[runtime_profiles.default]\nparallel_tools = true\n');
    const term = await sb.startArbor([], { cols: 140, rows: 40 });
    await send(term, 'three workers');
    await term.waitForText(/spawn_subagent · job 3/, 15000);
    term.type('\x14Xy');
    await term.waitFor((s) => /0 running/.test(header(s) ?? ''), 'the pane showing 0 running', 10000);
    await term.waitForText(/killed \d+ runs?/, 5000, { where: 'screen' });
    await term.flush();
    expect(header(term.screen())).toMatch(/3 finished/);
  });
});

describe('bursts while 200 children stream (the bench tree)', () => {
  ptyTest('every key of every burst acts', PTY_TEST_TIMEOUT * 3, async (sb, ctx) => {
    const tree = await openAgentsTree({ mids: 10, leavesPerMid: 19, leafChunkMs: 500, leafChunks: 600 });
    ctx.onTestFinished(() => tree.close());
    const { writeConfig } = await import('../support/tempHome.js');
    writeConfig(sb.h.dir, treeConfig(tree.url, { children: 200 }));
    const term = await sb.startArbor([], { cols: 140, rows: 40 });
    await send(term, AGENTS_BENCH.rootPrompt);
    await until(() => tree.stats().open.leaf >= 190, 60000, 'the tree to start (190 leaves streaming)');
    // Typing into the chat line while the tree streams.
    const bursts: [string, string][] = [
      ['hello world\x7f\x7f\x7f\x7f\x7f', 'hello'],
      ['\x01>> ', '>> hello'],
      ['\x05there\x1b\x7f!', '>> hello !'],
      ['\x15abc\x1b[D\x1b[DX', 'aXbc'],
    ];
    for (const [keys, want] of bursts) {
      term.type(keys);
      await term.waitFor((s) => inputLine(s) === want, `the line to read ${JSON.stringify(want)} after ${JSON.stringify(keys)}`, 10000);
    }
    // The pane: open and move five rows down in one write each.
    term.type('\x14');
    await term.waitFor((s) => /· 1\/\d+$/.test(header(s) ?? ''), 'the pane', 10000);
    term.type('jjjjj');
    await term.waitFor((s) => /· 6\/\d+$/.test(header(s) ?? ''), 'the selection on row 6', 10000);
    // Close it, and Ctrl+C stops the whole turn.
    term.type('\x1b');
    await term.waitFor((s) => header(s) === undefined && inputLine(s) === 'aXbc', 'the chat line again, unchanged', 10000);
    term.type('\x03');
    await term.waitFor(() => tree.stats().treeEnded, 'every request of the tree to end', 20000);
  });
});
