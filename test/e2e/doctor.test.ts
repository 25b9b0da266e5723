// `arbor doctor` in a real terminal (so the terminal check can hold), against a provider
// that answers, a config that does not parse, and a provider nobody listens for.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'vitest';
import { describe, expect, it } from 'vitest';
import { startTerminal } from '../support/terminal.js';
import { runArbor } from '../support/runArbor.js';
import { tempArborHome, writeConfig, type ArborHome } from '../support/tempHome.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT } from './sandbox.js';

const KEY = 'sk-doctor-test-0123456789abcdef';

/** A server that answers GET /v1/models like an OpenAI-compatible one, 401 without the key. */
async function modelsServer(ctx: TestContext): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization === `Bearer ${KEY}` ? 'with-key' : 'no-key'}`);
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[{"id":"fake-model"}]}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  ctx.onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

/** A port that was just free: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function providerToml(baseUrl: string, keyEnv = 'DOCTOR_TEST_KEY'): string {
  return [
    'default_agent = "main"',
    '[providers.local]',
    'type = "openai-compatible"',
    `base_url = "${baseUrl}"`,
    'model = "fake-model"',
    `api_key_env = "${keyEnv}"`,
    '[agents.main]',
    'provider = "local"',
    '',
  ].join('\n');
}

async function doctor(ctx: TestContext, h: ArborHome, env: Record<string, string> = {}) {
  const term = await startTerminal({ args: ['doctor'], env: { ...h.env, ...env }, cwd: h.dir, cols: 160, rows: 40 });
  ctx.onTestFinished(() => term.dispose());
  const exit = await term.waitForExit(20000);
  await term.flush();
  return { code: exit.exitCode, text: term.scrollback() };
}

function withHome(ctx: TestContext): ArborHome {
  const h = tempArborHome();
  ctx.onTestFinished(() => h.cleanup());
  return h;
}

describe('arbor doctor', { timeout: PTY_TEST_TIMEOUT }, () => {
  it('passes every check with a good config and a provider that answers, and never shows the key', async (ctx) => {
    const h = withHome(ctx);
    const server = await modelsServer(ctx);
    const configPath = writeConfig(h.dir, providerToml(server.url));
    const { code, text } = await doctor(ctx, h, { DOCTOR_TEST_KEY: KEY });
    expect(text).toMatch(/✓ Node\.js: v\d+\.\d+\.\d+ \(arbor needs 20\.0 or later\)/);
    expect(text).toContain('✓ terminal: interactive (TERM=xterm-256color)');
    expect(text).toMatch(/· colours: 256/);
    expect(text).toMatch(/· terminal size: 160 × 40/);
    expect(text).toMatch(/· bracketed paste: likely supported/);
    expect(text).toMatch(/· copy to clipboard \(OSC 52\): /);
    expect(text).toContain(`✓ ARBOR_HOME: ${h.home} is writable`);
    expect(text).toContain(`✓ config: valid; read ${configPath}`);
    expect(text).toMatch(
      new RegExp(`✓ provider local \\(openai-compatible/fake-model\\): reachable at ${server.url}/models \\(HTTP 200, \\d+ ms\\)`),
    );
    expect(text).toContain('✓ offline fallback: the built-in model (arbor-offline) answers');
    expect(text).toContain('All checks passed.');
    expect(text).not.toContain(KEY);
    expect(server.seen).toEqual(['GET /v1/models with-key']);
    expect(code).toBe(0);
  });

  it('fails on a config that does not parse, naming the file and line, and checks no provider', async (ctx) => {
    const h = withHome(ctx);
    const configPath = writeConfig(h.dir, 'default_agent = "main"\n[providers.local\ntype = "offline"\n');
    const { code, text } = await doctor(ctx, h);
    expect(text).toMatch(new RegExp(`✗ config: .*${configPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*2`));
    expect(text).toContain('✗ providers: not checked: the config is not valid');
    expect(text).toContain('✓ offline fallback');
    expect(text).toContain('✓ terminal: interactive');
    expect(text).toMatch(/2 checks failed\./);
    expect(code).toBe(1);
  });

  it('fails on a provider nobody answers for, and on a key the provider refuses', async (ctx) => {
    const h = withHome(ctx);
    const port = await closedPort();
    const server = await modelsServer(ctx);
    writeConfig(
      h.dir,
      providerToml(`http://127.0.0.1:${port}/v1`) +
        [
          '[providers.refusing]',
          'type = "openai-compatible"',
          `base_url = "${server.url}"`,
          'model = "fake-model"',
          'api_key_env = "WRONG_KEY"',
          '',
        ].join('\n'),
    );
    const { code, text } = await doctor(ctx, h, { DOCTOR_TEST_KEY: KEY, WRONG_KEY: 'sk-wrong-key-000000' });
    expect(text).toContain(
      `✗ provider local (openai-compatible/fake-model): cannot reach http://127.0.0.1:${port}/v1/models: ECONNREFUSED`,
    );
    expect(text).toContain(
      `✗ provider refusing (openai-compatible/fake-model): ${server.url}/models refused the key from WRONG_KEY (HTTP 401)`,
    );
    expect(text).toContain('✓ config: valid');
    expect(text).toMatch(/2 checks failed\./);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('sk-wrong-key-000000');
    expect(code).toBe(1);
  });

  it('says when the key variable is not set, without a request', async (ctx) => {
    const h = withHome(ctx);
    const server = await modelsServer(ctx);
    writeConfig(h.dir, providerToml(server.url));
    const { code, text } = await doctor(ctx, h);
    expect(text).toContain('✗ provider local (openai-compatible/fake-model): the key variable DOCTOR_TEST_KEY is not set (or empty)');
    expect(server.seen).toEqual([]);
    expect(code).toBe(1);
  });

  it('speaks Spanish with LANG=es', async (ctx) => {
    const h = withHome(ctx);
    const { code, text } = await doctor(ctx, h, { LANG: 'es_ES.UTF-8' });
    expect(text).toContain('✓ configuración: válida; no hay archivo de configuración');
    expect(text).toContain('Todas las comprobaciones pasaron.');
    expect(code).toBe(0);
  });
});

// CI runs doctor with stdout a pipe (#20 item 13): the terminal line informs and passes.
describe('arbor doctor without a terminal', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('passes with stdout a pipe, and --json gives scripts the checks and the verdict', async (ctx) => {
    const h = withHome(ctx);
    const model = await modelsServer(ctx);
    writeConfig(h.dir, providerToml(model.url));
    const env = { ...h.env, DOCTOR_TEST_KEY: KEY };

    const text = await runArbor(['doctor'], { env, cwd: h.dir });
    expect(text.stdout).toContain('· terminal: not a terminal (stdin, stdout), terminal checks skipped');
    expect(text.stdout).toContain('All checks passed.');
    expect(text.code, text.stdout).toBe(0);

    const json = await runArbor(['doctor', '--json'], { env, cwd: h.dir });
    expect(json.code, json.stdout).toBe(0);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    const doc = JSON.parse(json.stdout) as { ok: boolean; failed: number; checks: { status: string; label: string; detail: string }[] };
    expect(doc).toMatchObject({ ok: true, failed: 0 });
    expect(doc.checks.find((c) => c.label === 'terminal')).toMatchObject({ status: 'info' });
    expect(doc.checks.find((c) => c.label.startsWith('provider local'))).toMatchObject({ status: 'ok' });
    expect(json.stdout).not.toContain(KEY);

    // A failing check: ok false, exit 1, the failure among the checks.
    writeConfig(h.dir, providerToml(model.url, 'UNSET_DOCTOR_KEY'));
    const bad = await runArbor(['doctor', '--json'], { env, cwd: h.dir });
    expect(bad.code).toBe(1);
    const badDoc = JSON.parse(bad.stdout) as { ok: boolean; failed: number; checks: { status: string; detail: string }[] };
    expect(badDoc).toMatchObject({ ok: false, failed: 1 });
    expect(badDoc.checks.filter((c) => c.status === 'fail').map((c) => c.detail)).toEqual([
      'the key variable UNSET_DOCTOR_KEY is not set (or empty)',
    ]);
  });
});
