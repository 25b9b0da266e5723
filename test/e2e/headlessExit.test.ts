// Headless runs end cleanly whatever happens around them: a reader that closes the pipe
// (| head -1, | true), a background task still running when the turn ends, a resumed
// session whose old events must not be printed again.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, type TestContext } from 'vitest';
import { jsonLines, spawnArbor } from '../support/runArbor.js';
import { PROCESS_TEST_TIMEOUT, ptyTest, type Sandbox } from './sandbox.js';
import { until } from '../support/until.js';

const STACK = /\n\s+at /;

function sessionIds(sb: Sandbox): string[] {
  return readdirSync(join(sb.h.home, 'sessions'))
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => f.slice(0, -'.jsonl'.length));
}

/** Runs arbor with stdout (and stderr) pipes; the test may close them. */
const spawnIn = (sb: Sandbox, args: string[], ctx: TestContext) => spawnArbor(args, { env: sb.h.env, cwd: sb.h.dir, ctx });

async function expectNotCutOff(sb: Sandbox, id: string): Promise<void> {
  const next = await sb.arbor(['--resume', id, '-p', 'are you there']);
  expect(next.code).toBe(0);
  expect(next.stderr).not.toContain('cut off');
}

describe.concurrent('a reader that goes away', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  ptyTest(
    '--output json with stdout closed after the first line: exit 0, no stack, the turn finished and saved',
    PROCESS_TEST_TIMEOUT,
    async (sb, ctx) => {
      writeFileSync(join(sb.h.dir, 'a.txt'), 'alpha\n');
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const m = await sb.withModel(async (req) => {
        if (req.index === 0) return { kind: 'tools', calls: [{ id: 'c1', name: 'read_file', args: { path: 'a.txt' } }] };
        // The answer comes only once the reader has gone, so writing it meets a closed pipe.
        await gate;
        return { kind: 'text', chunks: ['the file ', 'says alpha'] };
      });
      const run = spawnIn(sb, ['-p', 'read a.txt', '--output', 'json'], ctx);
      await until(() => run.stdout().includes('\n'), 20000, 'the first JSON line');
      const first = run.stdout().split('\n')[0];
      expect(JSON.parse(first).type).toBe('tool_call');
      run.child.stdout.destroy();
      release();
      expect(await run.closed).toBe(0);
      expect(run.stderr()).not.toContain('EPIPE');
      expect(run.stderr()).not.toMatch(STACK);
      expect(m.requests.length).toBe(2);
      const [id] = sessionIds(sb);
      expect(readFileSync(join(sb.h.home, 'sessions', `${id}.jsonl`), 'utf8')).toContain('says alpha');
      await expectNotCutOff(sb, id);
    },
  );

  ptyTest(
    'text mode with stdout and stderr closed at once (| true): exit 0, the fan-out finished and saved',
    PROCESS_TEST_TIMEOUT,
    async (sb, ctx) => {
      const run = spawnIn(sb, ['-p', 'fan out 3: x'], ctx);
      run.child.stdout.destroy();
      run.child.stderr.destroy();
      expect(await run.closed).toBe(0);
      const [id] = sessionIds(sb);
      expect(readFileSync(join(sb.h.home, 'sessions', `${id}.jsonl`), 'utf8')).toContain('Fan-out finished: 3 of 3 succeeded');
      await expectNotCutOff(sb, id);
    },
  );
});

describe.concurrent('headless background tasks and resumes', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  ptyTest('a background delegate is waited for: exit 0, a notice on stderr, the record completed', PROCESS_TEST_TIMEOUT, async (sb) => {
    const r = await sb.arbor(['-p', 'delegate in background to researcher: dig into Y']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Background task started for researcher');
    expect(r.stderr).toContain('arbor: waiting for the background task this turn started (1) to finish; Ctrl+C stops it.');
    expect(r.stderr).toMatch(/Background task [0-9a-f]{8} \(researcher\) completed/);
    expect(r.stderr).not.toContain('is closed');
    expect(r.stderr).not.toMatch(STACK);
    const [file] = readdirSync(join(sb.h.home, 'tasks'));
    const rec = JSON.parse(readFileSync(join(sb.h.home, 'tasks', file), 'utf8'));
    expect(rec).toMatchObject({ agent: 'researcher', status: 'completed', error: null });
    expect(rec.output).toContain('Done: dig into Y');
  });

  ptyTest('--resume -p prints only the new turn: no old events in JSON, no old tool lines on stderr', PROCESS_TEST_TIMEOUT, async (sb) => {
    const first = await sb.arbor(['-p', 'fan out 2: old work']);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('tool spawn_subagent: ok');
    const [id] = sessionIds(sb);
    const json = await sb.arbor(['--resume', id, '-p', 'brand new question', '--output', 'json']);
    expect(json.code).toBe(0);
    const events = jsonLines(json.stdout);
    expect(events.map((e) => e.type).filter((t) => t !== 'text')).toEqual(['usage', 'final']);
    const text = events.map((e) => e.delta ?? '').join('');
    expect(text).toContain('You said: "brand new question"');
    expect(text).not.toContain('old work');
    const plain = await sb.arbor(['--resume', id, '-p', 'and another']);
    expect(plain.code).toBe(0);
    expect(plain.stderr).not.toContain('tool spawn_subagent');
  });
});

describe.concurrent('exit codes', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  ptyTest('an unknown or ambiguous --resume id is a usage error: exit 2, naming the problem', PROCESS_TEST_TIMEOUT, async (sb) => {
    const unknown = await sb.arbor(['--resume', 'nosuchsession', '-p', 'hi']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('cannot resume');
    expect((await sb.arbor(['-p', 'one'])).code).toBe(0);
    expect((await sb.arbor(['-p', 'two'])).code).toBe(0);
    // Both ids start with the year: the prefix names two sessions.
    const ambiguous = await sb.arbor(['--resume', '2', '-p', 'hi']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('cannot resume');
    expect(ambiguous.stderr).not.toMatch(STACK);
  });
});

describe.concurrent('the documented -p and --resume orders', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  ptyTest(
    '-p --resume "…", --resume -p "…" and --resume <id> -p "…" all continue a session; -p alone names <prompt>',
    PROCESS_TEST_TIMEOUT,
    async (sb) => {
      expect((await sb.arbor(['-p', 'first words'])).code).toBe(0);
      const [id] = sessionIds(sb);
      for (const args of [
        ['-p', '--resume', 'readme order'],
        ['--resume', '-p', 'flag first'],
        ['--resume', id, '-p', 'by id'],
      ]) {
        const r = await sb.arbor(args);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stdout).toContain(`You said: "${args[args.length - 1]}"`);
      }
      expect(sessionIds(sb)).toEqual([id]);
      const bare = await sb.arbor(['-p']);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain("'-p, --print <prompt>' argument missing");
    },
  );
});
