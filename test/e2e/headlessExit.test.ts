// Headless runs end cleanly whatever happens around them: a reader that closes the pipe
// (| head -1, | true), a background task still running when the turn ends, a resumed
// session whose old events must not be printed again.
import { trustFolderForTest } from '../support/trustFolder.js';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arborBin } from '../support/paths.js';
import { baseEnv } from '../support/terminal.js';
import { PROCESS_TEST_TIMEOUT, sandbox, type Sandbox } from './sandbox.js';

const STACK = /\n\s+at /;

function sessionIds(sb: Sandbox): string[] {
  return readdirSync(join(sb.h.home, 'sessions'))
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => f.slice(0, -'.jsonl'.length));
}

/** Runs arbor with stdout (and stderr) pipes; `onStdout` may close them. */
function spawnArbor(sb: Sandbox, args: string[]) {
  // The sandbox's ./.arbor settings are the test's own: trusted as the harness does.
  trustFolderForTest(sb.h.dir, baseEnv(sb.h.env));
  const child = spawn(process.execPath, [arborBin, ...args], { cwd: sb.h.dir, env: baseEnv(sb.h.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
  return { child, closed, stderr: () => stderr };
}

async function expectNotCutOff(sb: Sandbox, id: string): Promise<void> {
  const next = await sb.arbor(['--resume', id, '-p', 'are you there']);
  expect(next.code).toBe(0);
  expect(next.stderr).not.toContain('cut off');
}

describe.concurrent('a reader that goes away', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('--output json with stdout closed after the first line: exit 0, no stack, the turn finished and saved', async (ctx) => {
    const sb = sandbox(ctx);
    writeFileSync(join(sb.h.dir, 'a.txt'), 'alpha\n');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const m = await sb.withModel(async (req) => {
      if (req.index === 0) return { kind: 'tools', calls: [{ id: 'c1', name: 'read_file', args: { path: 'a.txt' } }] };
      // The answer comes only once the reader has gone, so writing it meets a closed pipe.
      await gate;
      return { kind: 'text', chunks: ['the file ', 'says alpha'] };
    });
    const run = spawnArbor(sb, ['-p', 'read a.txt', '--output', 'json']);
    const first = await new Promise<string>((resolve) => {
      let buf = '';
      run.child.stdout.setEncoding('utf8').on('data', (d: string) => {
        buf += d;
        if (buf.includes('\n')) resolve(buf.split('\n')[0]);
      });
    });
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
  });

  it('text mode with stdout and stderr closed at once (| true): exit 0, the fan-out finished and saved', async (ctx) => {
    const sb = sandbox(ctx);
    const run = spawnArbor(sb, ['-p', 'fan out 3: x']);
    run.child.stdout.destroy();
    run.child.stderr.destroy();
    expect(await run.closed).toBe(0);
    const [id] = sessionIds(sb);
    expect(readFileSync(join(sb.h.home, 'sessions', `${id}.jsonl`), 'utf8')).toContain('Fan-out finished: 3 of 3 succeeded');
    await expectNotCutOff(sb, id);
  });
});

describe.concurrent('headless background tasks and resumes', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('a background delegate is waited for: exit 0, a notice on stderr, the record completed', async (ctx) => {
    const sb = sandbox(ctx);
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

  it('--resume -p prints only the new turn: no old events in JSON, no old tool lines on stderr', async (ctx) => {
    const sb = sandbox(ctx);
    const first = await sb.arbor(['-p', 'fan out 2: old work']);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('tool spawn_subagent: ok');
    const [id] = sessionIds(sb);
    const json = await sb.arbor(['--resume', id, '-p', 'brand new question', '--output', 'json']);
    expect(json.code).toBe(0);
    const events = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; delta?: string });
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
  it('an unknown or ambiguous --resume id is a usage error: exit 2, naming the problem', async (ctx) => {
    const sb = sandbox(ctx);
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
  it('-p --resume "…", --resume -p "…" and --resume <id> -p "…" all continue a session; -p alone names <prompt>', async (ctx) => {
    const sb = sandbox(ctx);
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
  });
});
