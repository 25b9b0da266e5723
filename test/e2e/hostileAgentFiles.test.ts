// Hostile agent files in the built app: a name holding OSC 0 / OSC 52 / C1 set as
// default_agent and a model holding OSC never reach the pty raw (status bar, /model), nor
// stderr in a start error; FIFO and /dev/zero agent files do not hang or fill the start; a
// huge description stays out of the requests and /agents list; an alias bomb is a located
// config error with exit 2.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { disposeAllTerminals } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, READY, send, ptyTest } from './sandbox.js';
import { yamlAliasBomb } from '../helpers/yamlBomb.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const WIDE = { cols: 160, rows: 40 };
const reply = () => ({ kind: 'text' as const, chunks: ['fine'] });

function agentsDir(dir: string): string {
  const agents = join(dir, '.arbor', 'agents');
  mkdirSync(agents, { recursive: true });
  return agents;
}

// In YAML double quotes: \e is ESC, \a is BEL, \x9b the C1 CSI.
const EVIL_NAME_YAML = 'evil\\e]0;pwned-title\\a\\e]52;c;cHduZWQ=\\a\\x9b31m';
const EVIL_NAME_TOML = 'evil\\u001b]0;pwned-title\\u0007\\u001b]52;c;cHduZWQ=\\u0007\\u009b31m';

/** Bytes a terminal would act on as the hostile sequences. */
function rawHostile(raw: string): string[] {
  return ['\u001b]0;pwned', '\u001b]52;', '\u009b31m', '\u001b]0;title'].filter((s) => raw.includes(s));
}

describe('escapes in agent files', () => {
  ptyTest('a hostile default_agent name and model show inert in the status bar and /model', PTY_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(reply);
    const agents = agentsDir(sb.h.dir);
    writeFileSync(
      join(agents, 'evil.md'),
      `---\nname: "${EVIL_NAME_YAML}"\nprovider: fake\nmodel: "m\\e]0;title\\a"\ndescription: "d\\e[2J"\n---\nYou help.\n`,
    );
    const cfg = join(sb.h.dir, '.arbor', 'config.toml');
    const { readFileSync } = await import('node:fs');
    writeFileSync(cfg, readFileSync(cfg, 'utf8').replace('default_agent = "main"', `default_agent = "${EVIL_NAME_TOML}"`));
    const term = await sb.startArbor([], WIDE);
    await term.waitForText('evil␛]0;pwned-title');
    await send(term, '/model');
    await term.waitForText('m␛]0;title');
    term.press('esc');
    await term.waitForText(READY, 10000, { where: 'screen' });
    await send(term, '/agents list');
    await term.waitForText('d␛[2J');
    await term.flush();
    expect(rawHostile(term.rawOutput())).toEqual([]);
  });

  ptyTest('a start error quoting a hostile value puts no raw ESC on stderr', PTY_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(reply);
    writeFileSync(join(agentsDir(sb.h.dir), 'bad.md'), `---\nprovider: "nope\\e]0;title\\a"\nmodel: "m\\e]52;c;eA==\\a"\n---\nx\n`);
    const res = await sb.arbor(['-p', 'hi']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('nope␛]0;title');
    expect(res.stderr).not.toMatch(/[\u001b\u0007\u0080-\u009f]/);
  });
});

describe('agent files that are not files', () => {
  ptyTest('a FIFO and /dev/zero as agent files: the chat starts, each named in a warning', PTY_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(reply);
    const agents = agentsDir(sb.h.dir);
    const fifo = join(sb.h.root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    symlinkSync(fifo, join(agents, 'pipe.md'));
    symlinkSync('/dev/zero', join(agents, 'zero.md'));
    const term = await sb.startArbor([], WIDE);
    await term.waitForText(`${join(agents, 'pipe.md')}: skipped: not a regular file`);
    await term.waitForText(`${join(agents, 'zero.md')}: skipped: not a regular file`);
  });
});

describe('huge descriptions', () => {
  ptyTest('stay out of the root request and keep /agents list fast', PTY_TEST_TIMEOUT * 2, async (sb) => {
    const model = await sb.withModel(reply, 'delegates = ["wordy", "huge"]\n');
    const agents = agentsDir(sb.h.dir);
    writeFileSync(join(agents, 'wordy.md'), `---\nprovider: fake\ndescription: ${'w'.repeat(200_000)}\n---\nx\n`);
    // 10 MB: over the agent-file cap, so skipped whole (the delegate entry then names an
    // unknown agent; a TOML definition takes its place so the config stays valid).
    writeFileSync(join(agents, 'huge.md'), `---\nprovider: fake\ndescription: ${'h'.repeat(10 * 1024 * 1024)}\n---\nx\n`);
    const cfg = join(sb.h.dir, '.arbor', 'config.toml');
    const { appendFileSync } = await import('node:fs');
    appendFileSync(cfg, '\n[agents.huge]\nprovider = "fake"\ndescription = "the small one"\n');
    const res = await sb.arbor(['-p', 'hi']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      `${join(agents, 'wordy.md')}: the description of agent "wordy" is 200000 characters; only the first 1000 are used`,
    );
    const size = Buffer.byteLength(JSON.stringify(model.requests[0].body));
    expect(size).toBeLessThan(40_000);

    const term = await sb.startArbor([], WIDE);
    const started = Date.now();
    await send(term, '/agents list');
    await term.waitForText('agents defined:', 10000);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('YAML alias bomb', () => {
  ptyTest('is reported as <file>:<line>:<col> with exit 2', PTY_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(reply);
    const bomb = yamlAliasBomb();
    const file = join(agentsDir(sb.h.dir), 'bomb.md');
    writeFileSync(file, `---\n${bomb}\n---\nx\n`);
    const res = await sb.arbor(['-p', 'hi']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${file}:3:8: the frontmatter's aliases expand too far`);
    expect(res.stderr).not.toMatch(/^arbor: Excessive alias count/m);
  });
});
