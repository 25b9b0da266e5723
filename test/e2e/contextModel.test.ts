// End to end: project context (/context, the AGENTS.md text in the model's system prompt,
// the cap's warning) and switching models (/model <provider>/<model>, --model), including
// a switch surviving --resume and -c.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { lastUserText } from '../support/loopbackModel.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, quit, send, ptyTest } from './sandbox.js';
import { messagesOf } from '../support/wireBody.js';
import { requestOf } from '../support/wireRequest.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const systemOf = (body: any): string => (body.messages ?? []).find((m: any) => m.role === 'system')?.content ?? '';

describe('project context', () => {
  ptyTest(
    'AGENTS.md files up to the repository root and in ARBOR_HOME reach the model; /context lists them and what the cap cut',
    PTY_TEST_TIMEOUT,
    async (sb) => {
      // The temp root is the repository; the working directory one folder below it.
      mkdirSync(join(sb.h.root, '.git'));
      writeFileSync(join(sb.h.root, 'AGENTS.md'), `REPO RULE\n${'r'.repeat(3000)}\n`);
      writeFileSync(join(sb.h.dir, 'AGENTS.md'), 'WORK RULE: reply tersely\n');
      writeFileSync(join(sb.h.home, 'AGENTS.md'), 'HOME RULE: be kind\n');
      const m = await sb.withModel(() => ({ kind: 'text', chunks: ['noted'] }), '\n[context]\nmax_kb = 2\n');
      const term = await sb.startArbor([], { cols: 160, rows: 40 });
      // The cap cut the repository's file and left the home file out: said at start.
      await term.waitForText(`project context: ${join(sb.h.root, 'AGENTS.md')} was cut to its first`, 5000);
      await term.waitForText(`project context: ${join(sb.h.home, 'AGENTS.md')} (19 bytes) was left out`, 5000);
      await send(term, '/context');
      await term.waitForText('Project context (AGENTS.md, cap 2.0 KB), in prompt order:', 5000);
      await term.waitFor(
        (s) =>
          s.includes(`${join(sb.h.home, 'AGENTS.md')} (user)  19 B, left out (over the cap)`) &&
          s.includes(`${join(sb.h.root, 'AGENTS.md')}  2.9 KB, cut to 2.0 KB`) &&
          s.includes(`${join(sb.h.dir, 'AGENTS.md')}  25 B`) &&
          s.includes('2.0 KB of 2.0 KB used.'),
        'the three files with their sizes and what the cap did',
        5000,
      );
      await send(term, 'hello');
      await term.waitForText('noted', 8000);
      const system = systemOf(m.requests[0].body);
      expect(system).toContain('WORK RULE: reply tersely');
      expect(system).toContain('REPO RULE');
      expect(system).not.toContain('HOME RULE');
      expect(system.indexOf('REPO RULE')).toBeLessThan(system.indexOf('WORK RULE'));
      expect(system).toContain(`## AGENTS.md: ${join(sb.h.dir, 'AGENTS.md')}`);
    },
  );
});

describe('switching models', () => {
  ptyTest(
    '/model <provider>/<model> switches the root; the next request asks for that model, and --resume keeps it',
    PTY_TEST_TIMEOUT * 2,
    async (sb) => {
      const m = await sb.withModel((req) => ({ kind: 'text', chunks: [`reply to ${lastUserText(req.body)}`] }));
      const term = await sb.startArbor([], { cols: 120, rows: 30 });
      await send(term, '/model nope/x');
      await term.waitForText('No provider "nope" in the config (configured: fake).', 5000);
      await send(term, '/model fake/bigger-model');
      await term.waitForText('main now uses fake (openai-compatible/bigger-model) for the rest of this session.', 5000);
      await term.waitForText('openai-compatible/bigger-model', 5000, { where: 'screen' });
      await send(term, 'first question');
      await term.waitForText('reply to first question', 8000);
      expect(requestOf(m.requests.at(-1)!.body).model).toBe('bigger-model');
      const id = await quit(term);

      const resumed = await sb.startArbor(['--resume', id], { cols: 120, rows: 30 });
      await resumed.waitForText('main uses openai-compatible/bigger-model, as when this session was saved', 5000);
      await send(resumed, 'second question');
      await resumed.waitForText('reply to second question', 8000);
      expect(requestOf(m.requests.at(-1)!.body).model).toBe('bigger-model');
      // The picker lists the configured provider and the model in use, marked current.
      await send(resumed, '/model');
      await resumed.waitFor(
        (s) =>
          /fake\s+openai-compatible\/fake-model/.test(s) && /fake\/bigger-model\s+openai-compatible\/bigger-model\s+\(current\)/.test(s),
        'the configured model and the switched one, current',
        5000,
      );
      resumed.press('up');
      resumed.press('enter');
      await resumed.waitForText('main now uses fake (openai-compatible/fake-model)', 5000);
      await send(resumed, 'third question');
      await resumed.waitForText('reply to third question', 8000);
      expect(requestOf(m.requests.at(-1)!.body).model).toBe('fake-model');
    },
  );

  ptyTest(
    '--model at launch (headless too): a bad value names the known providers; -c continues on the switched model',
    PROCESS_TEST_TIMEOUT,
    async (sb) => {
      const m = await sb.withModel(() => ({ kind: 'text', chunks: ['ok'] }), '\n[providers.spare]\ntype = "offline"\n');
      const bad = await sb.arbor(['--model', 'ghost/x', '-p', 'hi']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--model ghost/x: No provider "ghost" in the config (configured: fake, spare).');
      expect(m.requests).toHaveLength(0);

      const r = await sb.arbor(['-p', 'hi', '--model', 'fake/launch-model']);
      expect(r.code).toBe(0);
      expect(requestOf(m.requests.at(-1)!.body).model).toBe('launch-model');
      const again = await sb.arbor(['-c', '-p', 'more']);
      expect(again.code).toBe(0);
      expect(requestOf(m.requests.at(-1)!.body).model).toBe('launch-model');
      expect(messagesOf(m.requests.at(-1)!.body).some((x) => x.role === 'user' && x.content === 'hi')).toBe(true);

      // The chat too: -m picks the offline provider, so the loopback model hears nothing.
      const before = m.requests.length;
      const term = await sb.startArbor(['-m', 'spare'], { cols: 120, rows: 30 });
      await term.waitForText('offline/arbor-offline', 5000, { where: 'screen' });
      await send(term, 'who answers?');
      await term.waitForText('You said: "who answers?"', 8000);
      expect(m.requests.length).toBe(before);
    },
  );
});
