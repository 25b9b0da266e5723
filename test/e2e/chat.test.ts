// End to end: the built bin/arbor.js in a real pseudo-terminal, talking to a loopback
// OpenAI-compatible server scripted per test. Assertions are on visible text only.
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText } from '../support/loopbackModel.js';
import { arborBin } from '../support/paths.js';
import { jsonLines, runArbor } from '../support/runArbor.js';
import { disposeAllTerminals, startTerminal } from '../support/terminal.js';
import { fakeProviderConfig, writeConfig } from '../support/tempHome.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, READY, START_TIMEOUT, sandbox, send, ptyTest } from './sandbox.js';
import { requestOf } from '../support/wireRequest.js';

// Safety net: nothing a failed test started may outlive it.
afterEach(async () => {
  await disposeAllTerminals();
});

describe.concurrent('command line', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('--help prints usage and exits 0', async (ctx) => {
    const { arbor } = sandbox(ctx);
    const r = await arbor(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage:/);
    expect(r.stdout).toContain('--resume');
    // -c is --continue (as in other agent CLIs); --config is long only.
    expect(r.stdout).toContain('-c, --continue');
    expect(r.stdout).toMatch(/^\s+--config <path>/m);
    expect(r.stdout).toContain('-p, --print');
    expect(r.stderr).toBe('');
  });

  it('--help lists arbor acp, in English and in Spanish', async (ctx) => {
    const { arbor, h } = sandbox(ctx);
    const en = await arbor(['--help']);
    expect(en.stdout).toMatch(/^ {2}arbor acp {18}serve the Agent Client Protocol on stdio \(for editors such as Zed\)$/m);
    const es = await runArbor(['--help'], { env: { ...h.env, LANG: 'es_ES.UTF-8' }, cwd: h.dir });
    expect(es.code).toBe(0);
    expect(es.stdout).toMatch(/^ {2}arbor acp {18}sirve el Agent Client Protocol por stdio \(para editores como Zed\)$/m);
  });

  it('--version prints the package version and the Node version', async (ctx) => {
    const { arbor } = sandbox(ctx);
    const r = await arbor(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^arbor \d+\.\d+\.\d+ \(Node\.js v\d+\.\d+\.\d+\)\n$/);
    expect(r.stdout).toContain(process.version);
  });

  it('an unknown flag exits 2 with an error naming it', async (ctx) => {
    const { arbor } = sandbox(ctx);
    const r = await arbor(['--frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^arbor: .*--frobnicate/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });
});

describe('interactive chat', () => {
  ptyTest(
    'streams the reply onto the screen and shows provider, model and tokens in the status bar',
    PTY_TEST_TIMEOUT,
    async ({ withModel, startArbor }) => {
      const chunks = ['Streaming ', 'reply ', 'arrives ', 'piece ', 'by ', 'piece ', 'until ', 'DONE.'];
      let release!: () => void;
      const lastChunk = new Promise<void>((r) => (release = r));
      const m = await withModel(() => ({
        kind: 'text',
        chunks,
        delayMs: 20,
        usage: { input: 321, output: 47 },
        hold: { afterChunks: chunks.length - 1, until: lastChunk },
      }));
      const term = await startArbor();
      await send(term, 'hello model');

      // The first words are visible while the last chunk has not been sent yet (the model
      // holds it until the test has looked).
      await term.waitForText('Streaming reply', 8000);
      expect(term.screen()).not.toContain('DONE.');
      release();
      await term.waitForText('Streaming reply arrives piece by piece until DONE.', 10000);

      await term.waitForText('321 in / 47 out', 5000, { where: 'screen' });
      const screen = term.screen();
      expect(screen).toContain('fake-model');
      expect(screen).toContain('hello model');
      expect(m.requests).toHaveLength(1);
      expect(lastUserText(m.requests[0].body)).toBe('hello model');
    },
  );

  ptyTest(
    'Esc interrupts a long reply: the partial text stays, marked interrupted, and input works again',
    PTY_TEST_TIMEOUT,
    async ({ withModel, startArbor }) => {
      const words = Array.from({ length: 50 }, (_, i) => `w${i + 1} `);
      const m = await withModel((req) =>
        req.index === 0
          ? { kind: 'text', chunks: words, delayMs: 100 }
          : { kind: 'text', chunks: ['second ', 'answer ', 'here'], delayMs: 20 },
      );
      const term = await startArbor();
      await send(term, 'tell me a long story');
      await term.waitForText('w1 w2 w3 w4 w5', 8000);
      term.press('esc');

      await term.waitForText(/interrupted/i, 5000, { where: 'screen' });
      // The model request was abandoned, not left streaming to the end.
      await expect(m.requests[0].ended).resolves.toBe('client_closed');
      await term.flush();
      const after = term.scrollback();
      expect(after).toContain('w1 w2 w3 w4 w5');
      expect(after).not.toContain('w50');
      const shown = after.match(/w\d+ /g)?.length ?? 0;

      await send(term, 'are you there');
      await term.waitForText('second answer here', 8000);
      // The partial reply does not keep growing once interrupted. Barrier: the next turn's
      // request has been answered and drawn, after everything the first one could still deliver.
      expect(term.scrollback().match(/w\d+ /g)?.length ?? 0).toBe(shown);
      expect(m.requests).toHaveLength(2);
      expect(lastUserText(m.requests[1].body)).toBe('are you there');
      // The partial reply is kept in the conversation.
      expect(JSON.stringify(requestOf(m.requests[1].body).messages)).toContain('w1 w2 w3');
    },
  );

  ptyTest(
    'Ctrl+D on an empty input quits with code 0 and restores the terminal; --resume shows the conversation again',
    PTY_TEST_TIMEOUT * 1.5,
    async ({ h, withModel }, ctx) => {
      const m = await withModel((req) =>
        req.index === 0
          ? { kind: 'text', chunks: ['The capital ', 'of France ', 'is Paris.'], delayMs: 20 }
          : { kind: 'text', chunks: ['Resumed ', 'and ', 'ready.'], delayMs: 20 },
      );
      // A shell runs arbor, then reports its exit code and the tty's mode: what a person's
      // shell gets back after quitting.
      const script = `"${process.execPath}" "${arborBin}"; echo "arbor-exit=$?"; stty -a`;
      const term = await startTerminal({ command: '/bin/sh', args: ['-c', script], env: h.env, cwd: h.dir, cols: 100, rows: 30 });
      ctx.onTestFinished(() => term.dispose());
      await term.waitForText(READY, START_TIMEOUT);
      await term.waitForRawMode(START_TIMEOUT);
      await send(term, 'what is the capital of France');
      await term.waitForText('The capital of France is Paris.', 8000);
      await term.waitForText(READY, 5000, { where: 'screen' });

      term.press('ctrl-d');
      await term.waitForText('arbor-exit=0', 8000);
      await term.waitForText(/\bicanon\b/, 5000);
      const all = term.scrollback();
      // Raw mode is undone: canonical input and echo are back on.
      expect(all).not.toMatch(/(^|\s)-icanon\b/);
      expect(all).not.toMatch(/(^|\s)-echo\b/);
      expect((await term.waitForExit(5000)).exitCode).toBe(0);

      // --resume with no id opens the session picker: Enter takes the newest.
      const resumed = await startTerminal({ args: ['--resume'], env: h.env, cwd: h.dir, cols: 100, rows: 30 });
      ctx.onTestFinished(() => resumed.dispose());
      await resumed.waitForText('Resume a session', START_TIMEOUT);
      await resumed.waitForRawMode(START_TIMEOUT);
      resumed.press('enter');
      await resumed.waitForText(READY, START_TIMEOUT);
      await resumed.waitForText('what is the capital of France', 5000);
      await resumed.waitForText('The capital of France is Paris.', 5000);
      // Restored into the model's context too, not only onto the screen.
      await send(resumed, 'and now?');
      await resumed.waitForText('Resumed and ready.', 8000);
      const context = JSON.stringify(requestOf(m.requests[1].body).messages);
      expect(context).toContain('what is the capital of France');
      expect(context).toContain('The capital of France is Paris.');
    },
  );

  ptyTest('renders a markdown reply without raw # or ``` markers', PTY_TEST_TIMEOUT, async ({ withModel, startArbor }) => {
    const md = [
      '# Release Notes\n\n',
      'Some **important** text.\n\n',
      '- first item\n',
      '- second item\n\n',
      '```js\n',
      'const answer = 42;\n',
      '```\n',
    ];
    await withModel(() => ({ kind: 'text', chunks: md, delayMs: 30 }));
    const term = await startArbor();
    await send(term, 'show me markdown');
    await term.waitFor(
      (screen) =>
        screen.includes('Release Notes') &&
        screen.includes('second item') &&
        screen.includes('const answer = 42;') &&
        !screen.includes('```') &&
        !screen.includes('**') &&
        !/#\s*Release Notes/.test(screen),
      'the rendered markdown (no raw markers)',
      10000,
    );
    const screen = term.screen();
    expect(screen).toContain('first item');
    expect(screen).toContain('important');
  });

  ptyTest('with no config at all, the offline provider answers with its labelled reply', PTY_TEST_TIMEOUT, async ({ startArbor }) => {
    const term = await startArbor();
    await send(term, 'hi there');
    await term.waitForText('[offline model]', 8000);
    await term.waitForText(READY, 5000, { where: 'screen' });
    expect(term.scrollback()).toContain('hi there');
  });
});

describe.concurrent('headless', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('-p prints the answer on stdout and exits 0', async (ctx) => {
    const { withModel, arbor } = sandbox(ctx);
    const m = await withModel(() => ({ kind: 'text', chunks: ['Headless ', 'answer ', 'works.'], delayMs: 10 }));
    const r = await arbor(['-p', 'hello']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Headless answer works.\n');
    expect(lastUserText(m.requests[0].body)).toBe('hello');
  });

  it('--output json prints one JSON event per line, ending with final', async (ctx) => {
    const { withModel, arbor } = sandbox(ctx);
    await withModel(() => ({ kind: 'text', chunks: ['Alpha ', 'beta ', 'gamma.'], delayMs: 10, usage: { input: 11, output: 3 } }));
    const r = await arbor(['-p', 'hello', '--output', 'json']);
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    expect(events[events.length - 1]).toMatchObject({ type: 'final', status: 'completed', text: 'Alpha beta gamma.' });
    const text = events
      .filter((e) => e.type === 'text')
      .map((e) => e.delta as string)
      .join('');
    expect(text).toBe('Alpha beta gamma.');
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ input_tokens: 11, output_tokens: 3 });
  });

  it('a 401 exits non-zero and stderr names the provider and model', async (ctx) => {
    const { withModel, arbor } = sandbox(ctx);
    await withModel(() => ({ kind: 'status', status: 401 }));
    const r = await arbor(['-p', 'hello']);
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    expect(r.stderr).toContain('"fake"');
    expect(r.stderr).toContain('fake-model');
    expect(r.stderr).toMatch(/401/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('-p - reads the prompt from stdin', async (ctx) => {
    const { withModel, arbor } = sandbox(ctx);
    const m = await withModel((req) => ({ kind: 'text', chunks: [`you said: ${lastUserText(req.body)}`] }));
    const r = await arbor(['-p', '-'], 'prompt from a pipe\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('you said: prompt from a pipe\n');
    expect(m.requests).toHaveLength(1);
  });
});

describe.concurrent('bad config', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('a TOML syntax error exits 2 naming the file, line and column', async (ctx) => {
    const { h, arbor } = sandbox(ctx);
    const path = writeConfig(h.dir, 'default_agent = "main"\nmodel = @bad\n');
    const r = await arbor(['-p', 'hello']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path}:2:9: invalid TOML`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown provider names the key path and the known providers', async (ctx) => {
    const { h, arbor } = sandbox(ctx);
    const path = writeConfig(h.dir, fakeProviderConfig('http://127.0.0.1:9/v1').replace('provider = "fake"', 'provider = "locl"'));
    const r = await arbor([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('agents.main.provider: unknown provider "locl"');
    expect(r.stderr).toContain('(known: fake)');
    expect(r.stderr).toContain(path);
  });
});

describe('typeahead', () => {
  ptyTest('keys typed while arbor is still starting are sent as a message, not echoed as a paste', PTY_TEST_TIMEOUT, async (sb, ctx) => {
    const term = await startTerminal({ env: sb.h.env, cwd: sb.h.dir, cols: 100, rows: 30 });
    ctx.onTestFinished(() => term.dispose());
    // no waiting for the prompt: type at once, as an impatient person would
    term.type('hello early');
    term.press('enter');
    await term.waitForText('[offline model] You said: "hello early"', START_TIMEOUT);
    expect(term.scrollback()).not.toContain('2 lines');
  });
});

describe('Ctrl+C and retries', () => {
  ptyTest('Ctrl+C interrupts a running turn; twice with no turn quits with code 0', PTY_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(() => ({ kind: 'text', chunks: Array.from({ length: 60 }, (_, i) => `word${i} `), delayMs: 100 }));
    const term = await sb.startArbor();
    await send(term, 'talk slowly');
    await term.waitForText('word3');
    term.press('ctrl-c');
    await term.waitForText(/interrupted/i);
    expect(term.hasExited).toBe(false);
    term.press('ctrl-c');
    await term.waitForText('Press Ctrl+C again to quit.');
    term.press('ctrl-c');
    const exit = await term.waitForExit(10000);
    expect(exit.exitCode).toBe(0);
  });

  ptyTest('a 429 is retried and the status bar says so while it waits', PTY_TEST_TIMEOUT, async (sb) => {
    // Retry-After 2 s keeps the notice on screen long enough to read.
    sb.h.env.ARBOR_RETRY_BASE_MS = '2000';
    await sb.withModel(({ index }) =>
      index === 0
        ? { kind: 'status', status: 429, headers: { 'retry-after': '2' }, body: '{"error":{"message":"slow down"}}' }
        : { kind: 'text', chunks: ['after the retry'] },
    );
    const term = await sb.startArbor();
    await send(term, 'hello');
    await term.waitForText(/↻ .*retry 1\/3/, 10000);
    await term.waitForText('after the retry', 15000);
    await term.waitForNoText('↻');
  });
});

describe('setup', () => {
  ptyTest('arbor init writes a commented starter config, says where, and never overwrites it', PROCESS_TEST_TIMEOUT, async (sb) => {
    const first = await sb.arbor(['init']);
    expect(first.code).toBe(0);
    const path = `${sb.h.home}/config.toml`;
    expect(first.stdout).toContain(path);
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^#/m);
    expect(text).toContain('[agents.main]');
    expect(text).toContain('mode = "bounded"');
    const second = await sb.arbor(['init']);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/already exists/);
    expect(readFileSync(path, 'utf8')).toBe(text);
    // the written config loads: arbor runs headless with it
    const run = await sb.arbor(['-p', 'hello']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('[offline model]');
  });

  ptyTest('with only OPENAI_API_KEY set, the status bar names the provider and where it came from', PTY_TEST_TIMEOUT, async (sb) => {
    sb.h.env.OPENAI_API_KEY = 'sk-test-not-a-real-key-000000';
    const term = await sb.startArbor();
    await term.waitForText('openai/gpt-4.1-mini');
    await term.waitForText('OPENAI_API_KEY');
    expect(term.scrollback()).not.toContain('sk-test-not-a-real-key');
  });
});

describe('secrets', () => {
  ptyTest(
    'a key named by api_key_env is scrubbed from the session file even when its variable name looks harmless',
    PROCESS_TEST_TIMEOUT,
    async (sb) => {
      const secret = 'cred-4f9a8b7c6d5e4f3a2b1c';
      const model = await sb.withModel(() => ({ kind: 'text', chunks: ['noted'] }));
      writeConfig(
        sb.h.dir,
        fakeProviderConfig(model.url).replace('model = "fake-model"', 'model = "fake-model"\napi_key_env = "MY_PROVIDER_CRED"'),
      );
      sb.h.env.MY_PROVIDER_CRED = secret;
      const r = await sb.arbor(['-p', `remember ${secret} for me`]);
      expect(r.code).toBe(0);
      const { readdirSync, readFileSync } = await import('node:fs');
      const dir = `${sb.h.home}/sessions`;
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      const session = readFileSync(`${dir}/${files[0]}`, 'utf8');
      expect(session).toContain('remember');
      expect(session).not.toContain(secret);
    },
  );
});
