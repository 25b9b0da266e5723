// The pieces of `arbor doctor` that the pty tests cannot vary: argv, Node versions, terminal
// heuristics, and provider probes of the Anthropic kind and of a server that never answers.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../../../src/cli/args.js';
import { nodeCheck, terminalChecks, type TerminalFacts } from '../../../src/cli/doctor/environmentChecks.js';
import { probeProvider } from '../../../src/cli/doctor/providerProbe.js';
import { formatCheckLine } from '../../../src/cli/doctor/checkLine.js';
import type { ProviderConfig } from '../../../src/config/types.js';
import { initI18n } from '../../../src/i18n/index.js';

beforeAll(() => initI18n('en'));

describe('arbor doctor: argv', () => {
  it('is a command of its own, with --config, and takes no other argument', () => {
    expect(parseCli(['doctor'])).toEqual({ kind: 'doctor', configPath: undefined });
    // --config is long only: -c is --continue.
    expect(parseCli(['--config', 'x.toml', 'doctor'])).toEqual({ kind: 'doctor', configPath: 'x.toml' });
    expect(() => parseCli(['doctor', 'now'])).toThrow(UsageError);
    expect(() => parseCli(['doctor', 'now'])).toThrow(/"now"/);
  });

  it('takes --json; --json elsewhere is a usage error pointing at --output json', () => {
    expect(parseCli(['doctor', '--json'])).toEqual({ kind: 'doctor', configPath: undefined, json: true });
    expect(() => parseCli(['--json', '-p', 'hi'])).toThrow(
      new UsageError('--json works with arbor doctor only (headless -p uses --output json).'),
    );
  });
});

describe('arbor doctor: Node version', () => {
  it('holds for the engines minimum and later, fails below it', () => {
    expect(nodeCheck('20.0.0').status).toBe('ok');
    expect(nodeCheck('22.3.1').status).toBe('ok');
    const old = nodeCheck('18.19.0');
    expect(old.status).toBe('fail');
    expect(formatCheckLine(old)).toBe('✗ Node.js: v18.19.0 is too old: arbor needs 20.0 or later');
    // A config value or server error quoted in a line never reaches the terminal as a control sequence.
    expect(formatCheckLine({ status: 'fail', label: 'provider \x1b]0;pwned\x07x', detail: 'oops' })).toBe('✗ provider ␛]0;pwned␇x: oops');
  });
});

describe('arbor doctor: terminal', () => {
  const tty = (env: NodeJS.ProcessEnv, more: Partial<TerminalFacts> = {}): TerminalFacts => ({
    stdinIsTTY: true,
    stdoutIsTTY: true,
    colorDepth: 8,
    columns: 100,
    rows: 30,
    env,
    ...more,
  });
  const detail = (lines: ReturnType<typeof terminalChecks>, label: string) => lines.find((l) => l.label === label)?.detail;

  it('informs and passes without a terminal, naming the end that is not one (#20 item 13: CI)', () => {
    const lines = terminalChecks(tty({ TERM: 'xterm' }, { stdoutIsTTY: false }));
    expect(lines).toEqual([{ status: 'info', label: 'terminal', detail: expect.stringContaining('not a terminal (stdout)') }]);
    expect(terminalChecks(tty({}, { stdinIsTTY: false, stdoutIsTTY: false }))[0]).toMatchObject({
      status: 'info',
      detail: expect.stringContaining('not a terminal (stdin, stdout), terminal checks skipped'),
    });
    initI18n('es');
    expect(terminalChecks(tty({}, { stdoutIsTTY: false }))[0].detail).toContain(
      'no es una terminal (stdout), comprobaciones de terminal omitidas',
    );
    initI18n('en');
  });

  it('reports colours, size and the escape-sequence features without failing', () => {
    const lines = terminalChecks(tty({ TERM: 'xterm-256color', TERM_PROGRAM: 'iTerm.app' }, { colorDepth: 24 }));
    expect(lines.map((l) => l.status)).toEqual(['ok', 'info', 'info', 'info', 'info']);
    expect(detail(lines, 'colours')).toBe('16 million (true colour)');
    expect(detail(lines, 'terminal size')).toBe('100 × 30');
    expect(detail(lines, 'bracketed paste')).toBe('likely supported');
    expect(detail(lines, 'copy to clipboard (OSC 52)')).toBe('likely supported');
  });

  it('says when the Linux console is unlikely to bracket pastes, OSC 52 is unknown, or the window is small', () => {
    const lines = terminalChecks(tty({ TERM: 'linux' }, { colorDepth: 4, columns: 50, rows: 12 }));
    expect(detail(lines, 'bracketed paste')).toMatch(/^unlikely/);
    expect(detail(lines, 'copy to clipboard (OSC 52)')).toMatch(/^unknown/);
    expect(detail(lines, 'terminal size')).toMatch(/^50 × 12: small/);
    expect(detail(lines, 'colours')).toBe('16');
  });
});

describe('arbor doctor: provider probes', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = undefined;
  });
  async function listen(handler: (url: string | undefined, headers: IncomingHttpHeaders, res: import('node:http').ServerResponse) => void) {
    server = createServer((req, res) => handler(req.url, req.headers, res));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }
  const provider = (over: Partial<ProviderConfig>): ProviderConfig => ({
    name: 'p',
    type: 'openai-compatible',
    model: 'm',
    headers: {},
    ...over,
  });

  it('asks an Anthropic endpoint with x-api-key and anthropic-version', async () => {
    let seen: IncomingHttpHeaders = {};
    let path: string | undefined;
    const url = await listen((u, headers, res) => {
      seen = headers;
      path = u;
      res.writeHead(200).end('{}');
    });
    const line = await probeProvider(provider({ type: 'anthropic', base_url: url, api_key_env: 'K' }), { K: 'sk-ant-secret-123456' });
    expect(line.status).toBe('ok');
    expect(path).toBe('/v1/models');
    expect(seen['x-api-key']).toBe('sk-ant-secret-123456');
    expect(seen['anthropic-version']).toBe('2023-06-01');
    expect(seen.authorization).toBeUndefined();
    expect(formatCheckLine(line)).not.toContain('sk-ant-secret-123456');
  });

  it('gives up on a server that never answers after the timeout', async () => {
    const url = await listen(() => {
      /* never answers */
    });
    const started = performance.now();
    const line = await probeProvider(provider({ base_url: url }), {}, 200);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(line.status).toBe('fail');
    expect(line.detail).toBe(`cannot reach ${url}/models: no answer within 200 ms`);
  });

  it('fails on a server error and hides credentials in the URL', async () => {
    const url = await listen((_u, _h, res) => res.writeHead(503).end());
    const withUser = url.replace('http://', 'http://user:pw-secret@');
    const line = await probeProvider(provider({ base_url: withUser }), {});
    expect(line.status).toBe('fail');
    expect(line.detail).toBe(`${url}/models answered with a server error (HTTP 503)`);
    expect(line.detail).not.toContain('pw-secret');
  });
});
