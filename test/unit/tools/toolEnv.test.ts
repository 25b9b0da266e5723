// Tool subprocesses never see a secret: provider keys (configured or auto-detected) and
// every *_KEY / *_TOKEN / *_SECRET variable are removed from the shell's environment unless
// every binding profile names them in shell_env_passthrough.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArborConfig } from '../../../src/config/types.js';
import { shellTool } from '../../../src/tools/shell.js';
import { TOOL_RUN_MARKER, toolSubprocessEnv } from '../../../src/tools/toolEnv.js';
import type { ToolContext } from '../../../src/tools/types.js';
import { config, context, risk } from './helpers.js';

const SECRETS: Record<string, string> = {
  OPENAI_API_KEY: 'sk-openai-secret-value-1',
  ANTHROPIC_API_KEY: 'sk-ant-secret-value-2',
  MY_PROVIDER_CRED: 'named-by-api-key-env-3', // no secret-looking suffix: only the config names it
  GITHUB_TOKEN: 'ghp-secret-value-4',
  DEPLOY_SECRET: 'deploy-secret-value-5',
  FS_AUTH: 'mcp-bearer-value-6', // no secret-looking suffix: only the MCP entry names it
};
const PLAIN = { ARBOR_TEST_PLAIN: 'plain-value-ok' };

let work: string;
const saved: Record<string, string | undefined> = {};

beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-env-')));
  for (const [k, v] of Object.entries({ ...SECRETS, ...PLAIN })) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
});

afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(work, { recursive: true, force: true });
});

const withProviders = {
  ...config,
  providers: { mine: { name: 'mine', type: 'openai-compatible', model: 'm', headers: {}, api_key_env: 'MY_PROVIDER_CRED' } },
  mcp_servers: { fs: { name: 'fs', url: 'http://127.0.0.1:9/mcp', bearer_token_env: 'FS_AUTH' } },
} as unknown as ArborConfig;

function ctx(passthrough: string[] = [], ceilingPassthrough?: string[]): ToolContext {
  const c = context({ cwd: work, risk: risk({ shell_env_passthrough: passthrough }) });
  const ceilings = ceilingPassthrough ? [risk({ name: 'caller', shell_env_passthrough: ceilingPassthrough })] : undefined;
  return { ...c, config: withProviders, caller: { ...c.caller, ceilings } };
}

describe('the shell tool environment', () => {
  it('lacks every configured and secret-looking variable; ordinary ones stay', async () => {
    const r = await shellTool.run({ command: 'env' }, ctx());
    expect(r.success).toBe(true);
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(r.output).not.toContain(`${name}=`);
      expect(r.output).not.toContain(value);
    }
    expect(r.output).toContain('ARBOR_TEST_PLAIN=plain-value-ok');
    expect(r.output).toMatch(new RegExp(`${TOOL_RUN_MARKER}=[0-9a-f-]{36}`));
    const echo = await shellTool.run({ command: 'echo "[$OPENAI_API_KEY][$MY_PROVIDER_CRED]"' }, ctx());
    expect(echo.output).toBe('[][]\n[exit code: 0]');
  });

  it('keeps a variable named in shell_env_passthrough, and only that one', async () => {
    const r = await shellTool.run({ command: 'echo "[$GITHUB_TOKEN][$OPENAI_API_KEY]"' }, ctx(['GITHUB_TOKEN']));
    expect(r.output).toBe(`[${SECRETS.GITHUB_TOKEN}][]\n[exit code: 0]`);
  });

  it("under a bounded ceiling, a variable passes only if the caller's profile passes it too", async () => {
    const denied = await shellTool.run({ command: 'echo "[$GITHUB_TOKEN]"' }, ctx(['GITHUB_TOKEN'], []));
    expect(denied.output).toBe('[]\n[exit code: 0]');
    const allowed = await shellTool.run({ command: 'echo "[$GITHUB_TOKEN]"' }, ctx(['GITHUB_TOKEN'], ['GITHUB_TOKEN']));
    expect(allowed.output).toBe(`[${SECRETS.GITHUB_TOKEN}]\n[exit code: 0]`);
  });
});

describe('toolSubprocessEnv', () => {
  it('extra secret names (an MCP bearer variable) are removed too, and each call gets a fresh marker', () => {
    const base = { PATH: '/bin', MCP_BEARER: 'bearer-value', HOME: '/h' };
    const a = toolSubprocessEnv({ config: { providers: {} }, profiles: [], extraSecretNames: ['MCP_BEARER'], base });
    const b = toolSubprocessEnv({ config: { providers: {} }, profiles: [], base });
    expect(a.env).toEqual({ PATH: '/bin', HOME: '/h', [TOOL_RUN_MARKER]: a.marker });
    expect(b.env.MCP_BEARER).toBe('bearer-value');
    expect(a.marker).not.toBe(b.marker);
  });
});
