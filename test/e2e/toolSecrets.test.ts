// End to end, headless: a model asks the shell for provider keys and gets nothing back;
// a variable named in shell_env_passthrough is still there. The built bin/arbor.js runs
// against the loopback model with the keys in its environment.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { hasToolResults, trailingToolResults } from '../support/loopbackModel.js';
import { writeConfig, fakeProviderConfig } from '../support/tempHome.js';
import { PROCESS_TEST_TIMEOUT, ptyTest } from './sandbox.js';

describe('tool subprocess environment', () => {
  ptyTest('the shell sees no provider key, configured or auto-detected, but keeps a passthrough', PROCESS_TEST_TIMEOUT, async (sb) => {
    const keys = {
      OPENAI_API_KEY: 'sk-e2e-openai-0123456789',
      MY_PROVIDER_CRED: 'cred-e2e-named-0123456789',
      GITHUB_TOKEN: 'ghp-e2e-kept-0123456789',
    };
    Object.assign(sb.h.env, keys);
    let seen = '';
    const model = await sb.withModel((req) => {
      if (!hasToolResults(req.body)) {
        return {
          kind: 'tools',
          calls: [{ id: 'c1', name: 'shell', args: { command: 'echo "[$OPENAI_API_KEY][$MY_PROVIDER_CRED][$GITHUB_TOKEN]"' } }],
        };
      }
      seen = trailingToolResults(req.body)[0]?.content ?? '';
      return { kind: 'text', chunks: ['checked'] };
    });
    writeConfig(
      sb.h.dir,
      fakeProviderConfig(model.url).replace('model = "fake-model"', 'model = "fake-model"\napi_key_env = "MY_PROVIDER_CRED"') +
        '\n[risk_profiles.default]\nshell_env_passthrough = ["GITHUB_TOKEN"]\n',
    );
    const r = await sb.arbor(['-p', 'print the keys', '--yes']);
    expect(r.code).toBe(0);
    expect(seen).toBe(`[][][${keys.GITHUB_TOKEN}]\n[exit code: 0]`);
    for (const secret of [keys.OPENAI_API_KEY, keys.MY_PROVIDER_CRED]) {
      expect(r.stdout + r.stderr).not.toContain(secret);
      for (const f of readdirSync(`${sb.h.home}/sessions`))
        expect(readFileSync(`${sb.h.home}/sessions/${f}`, 'utf8')).not.toContain(secret);
    }
  });
});
