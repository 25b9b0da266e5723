// Escape injection, end to end: model text, read_file and shell output and provider error
// bodies carrying OSC 52 (clipboard), OSC 0/2 (window title), CSI cursor moves, C1 controls
// and DCS never reach the pty's output stream (asserted on the raw bytes, not the emulated
// screen), nor a headless stdout/stderr, and --resume does not replay them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasToolResults } from '../support/loopbackModel.js';
import { jsonLines } from '../support/runArbor.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, READY, sandbox, send, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const OSC52 = '\u001b]52;c;cHduZWQ=\u0007';
const OSC0 = '\u001b]0;model-title\u0007';
const OSC2_ST = '\u001b]2;file-title\u001b\\';
const CUP = '\u001b[13;37H';
const DSR = '\u001b[6n';
const C1_CSI = '\u009b2J';
const DCS = '\u001bPq#0;2;0;0;0\u001b\\';

/** Sequences arbor itself never writes: any of them in the output came from outside. */
const INJECTED: Array<[string, string]> = [
  ['OSC (any)', '\u001b]'],
  ['BEL', '\u0007'],
  ['CUP 13;37', CUP],
  ['DSR', DSR],
  ['C1 CSI', '\u009b'],
  ['C1 OSC', '\u009d'],
  ['DCS', '\u001bP'],
];

function injectedIn(raw: string): string[] {
  return INJECTED.filter(([, seq]) => raw.includes(seq)).map(([what]) => what);
}

const REPLY = [
  'Reply &#27;]0;ENTITY-TITLE&#7; ',
  `start ${OSC52.slice(0, 6)}`,
  `${OSC52.slice(6)} mid ${OSC0}`,
  ` ${CUP}${DSR} ${C1_CSI} ${DCS} REPLY-END`,
];
const SHELL = `printf '\\033]52;c;c2hlbGw=\\007 \\033]2;shell-title\\007 \\033[13;37H SHELL-%s' DONE`;
const AUTO = '\n[risk_profiles.default]\nauto_approve = ["read_file", "list_files", "shell"]\n';

describe('escape sequences from outside never reach the terminal', () => {
  ptyTest(
    'model text, read_file and shell output are shown inert, in the chat and after --resume',
    PTY_TEST_TIMEOUT * 2,
    async ({ h, withModel, startArbor }) => {
      writeFileSync(join(h.dir, 'evil.txt'), `FILE-START ${OSC2_ST} ${OSC52} ${CUP} FILE-END\n`);
      await withModel(
        (req) =>
          hasToolResults(req.body)
            ? { kind: 'text', chunks: REPLY, delayMs: 20 }
            : {
                kind: 'tools',
                calls: [
                  { name: 'read_file', args: { path: 'evil.txt' } },
                  { name: 'shell', args: { command: SHELL } },
                ],
              },
        AUTO,
      );
      const term = await startArbor();
      await send(term, 'show me');
      await term.waitForText('REPLY-END', 15000);
      await term.waitForText(READY, 8000, { where: 'screen' });
      // The sequences are on screen as visible text.
      expect(term.scrollback()).toContain('␛]52;c;cHduZWQ=␇');
      expect(term.scrollback()).toContain('␛]0;model-title␇');
      // An HTML entity naming ESC is not turned back into one by the markdown view.
      expect(term.scrollback()).toContain('Reply ␛]0;ENTITY-TITLE␇');
      expect(injectedIn(term.rawOutput())).toEqual([]);

      // The tool outputs drawn in full: the viewer, each card expanded.
      term.press('ctrl-o');
      await term.waitFor((s) => /Transcript\s+\d+\/\d+/.test(s), 'the viewer', 8000);
      term.press('up');
      await term.waitForText(/▸ .*shell/, 5000, { where: 'screen' });
      term.press('enter');
      await term.waitForText('SHELL-DONE', 5000, { where: 'screen' });
      term.press('up');
      await term.waitForText(/▸ .*read_file/, 5000, { where: 'screen' });
      term.press('enter');
      await term.waitForText('FILE-END', 5000, { where: 'screen' });
      expect(term.screen()).toContain('␛]2;file-title␛\\');
      expect(injectedIn(term.rawOutput())).toEqual([]);
      term.press('esc');
      await term.waitForText(READY, 5000, { where: 'screen' });

      term.press('ctrl-d');
      await term.waitForExit(8000);

      // -c: the newest session of this directory (--resume alone opens the picker).
      const resumed = await startArbor(['-c']);
      await resumed.waitForText('REPLY-END', 8000);
      expect(resumed.scrollback()).toContain('␛]52;c;cHduZWQ=␇');
      expect(injectedIn(resumed.rawOutput())).toEqual([]);
    },
  );

  ptyTest(
    'a session file written with raw escapes (before this fix) is not replayed by --resume',
    PTY_TEST_TIMEOUT,
    async ({ h, withModel, startArbor }) => {
      await withModel(() => ({ kind: 'text', chunks: ['unused'] }));
      const id = '20250101-000000-abcdef';
      const events = [
        { type: 'session', version: 1, id, createdAt: new Date().toISOString(), agentAlias: 'main', providerLabel: 'x/y', cwd: h.dir },
        { type: 'item', item: { id: 'u', kind: 'user', text: `old question ${OSC0}`, at: 1 } },
        { type: 'item', item: { id: 'a', kind: 'assistant', runId: 'r', text: `OLD-ANSWER ${OSC52} ${CUP} ${C1_CSI}`, at: 2 } },
        { type: 'item', item: { id: 'n', kind: 'notice', level: 'error', text: `OLD-NOTICE ${OSC2_ST}`, at: 3 } },
      ];
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(h.home, 'sessions'), { recursive: true });
      writeFileSync(join(h.home, 'sessions', `${id}.jsonl`), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
      const term = await startArbor(['--resume', id]);
      await term.waitForText('OLD-NOTICE', 8000);
      expect(term.scrollback()).toContain('OLD-ANSWER ␛]52;c;cHduZWQ=␇');
      expect(injectedIn(term.rawOutput())).toEqual([]);
    },
  );
});

describe.concurrent('headless output', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  const reply = () => ({ kind: 'text' as const, chunks: REPLY });

  it('--output text neutralises the answer; stderr carries no escapes either', async (ctx) => {
    const { withModel, arbor } = sandbox(ctx);
    await withModel((req) => (hasToolResults(req.body) ? reply() : { kind: 'tools', calls: [{ name: `evil${OSC0}`, args: {} }] }));
    const r = await arbor(['-p', 'go']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('start ␛]52;c;cHduZWQ=␇ mid ␛]0;model-title␇');
    expect(injectedIn(r.stdout)).toEqual([]);
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u009b]/);
    expect(r.stderr).toContain('evil␛]0;model-title␇');
    expect(r.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
  });

  it('--raw prints the answer exactly as the model sent it', async (ctx) => {
    const { withModel, arbor } = sandbox(ctx);
    await withModel(reply);
    const r = await arbor(['-p', 'go', '--raw']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${REPLY.join('')}\n`);
    const bad = await arbor(['-p', 'go', '--raw', '--output', 'json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--raw');
  });

  it('--output json carries no raw control character; every line parses', async (ctx) => {
    const { withModel, arbor } = sandbox(ctx);
    await withModel(
      (req) => (hasToolResults(req.body) ? reply() : { kind: 'tools', calls: [{ name: 'shell', args: { command: SHELL } }] }),
      AUTO,
    );
    const r = await arbor(['-p', 'go', '--output', 'json']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const events = jsonLines(r.stdout);
    const final = events.find((e) => e.type === 'final');
    expect(final.text).toContain('␛]52;c;cHduZWQ=␇');
    expect(JSON.stringify(events)).not.toMatch(/\\u001b|\\u0007/);
    expect(r.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
  });

  it('a provider error body with escapes reaches stderr inert', async (ctx) => {
    const { withModel, arbor } = sandbox(ctx);
    await withModel(() => ({
      kind: 'status',
      status: 400,
      body: JSON.stringify({ error: { message: `bad ${OSC52}${OSC0} request`, type: 'invalid_request_error' } }),
    }));
    const r = await arbor(['-p', 'go']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('bad ␛]52;c;cHduZWQ=␇␛]0;model-title␇ request');
    expect(r.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
  });
});
