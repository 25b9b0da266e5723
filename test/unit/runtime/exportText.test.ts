// RuntimeApi.exportText: the viewer's copy reaches a file only through the runtime, which
// writes under $ARBOR_HOME/exports as a private file with known secrets redacted.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { createRuntime, type Runtime } from '../../../src/runtime/runtime.js';

beforeAll(() => setLanguage('en'));

const config = loadConfigFromTexts(
  [{ file: '/x/config.toml', text: '[providers.off]\ntype = "offline"\n[agents.main]\nprovider = "off"\n' }],
  {},
).config;

let home: string;
let runtime: Runtime | undefined;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'arbor-export-'));
});
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
  rmSync(home, { recursive: true, force: true });
});

function open(env: NodeJS.ProcessEnv): Runtime {
  runtime = createRuntime({ config, cwd: home, interactive: false, env, startMcp: false, arborHome: home });
  return runtime;
}

describe('RuntimeApi.exportText', () => {
  it('writes a new 0600 file under $ARBOR_HOME/exports each time, secrets redacted', () => {
    const secret = 'sk-runtime-export-0123456789';
    process.env.ARBOR_TEST_EXPORT_KEY = secret;
    try {
      const rt = open({ ARBOR_HOME: home });
      const a = rt.exportText(`key: ${secret}`, 'delegate-call/1');
      const b = rt.exportText('again', 'delegate-call/1');
      expect(a).not.toBe(b);
      expect(a.startsWith(join(home, 'exports'))).toBe(true);
      expect(a).toMatch(/arbor-delegate-call_1-\d{8}-\d{6}\.txt$/);
      expect(readFileSync(a, 'utf8')).toBe('key: [redacted]');
      expect(statSync(a).mode & 0o777).toBe(0o600);
      expect(statSync(join(home, 'exports')).mode & 0o777).toBe(0o700);
    } finally {
      delete process.env.ARBOR_TEST_EXPORT_KEY;
    }
  });

  it('a folder that cannot be made is named in the error', () => {
    writeFileSync(join(home, 'blocker'), '');
    const rt = open({ ARBOR_HOME: join(home, 'blocker') });
    expect(() => rt.exportText('text', 'x')).toThrow(join(home, 'blocker', 'exports'));
  });
});
