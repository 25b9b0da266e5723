// Config the README promises, on the built CLI: the built-in offline provider by name
// (issue #20 item 7); the built-in agents kept beside a TOML [agents.main] (item 6).
import { describe, expect, it } from 'vitest';
import { writeConfig } from '../support/tempHome.js';
import { PROCESS_TEST_TIMEOUT, sandbox } from './sandbox.js';

describe.concurrent('config on the built CLI', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('[agents.main] provider = "offline" with no [providers.offline] answers a -p run', async (ctx) => {
    const sb = sandbox(ctx);
    writeConfig(sb.h.dir, '[agents.main]\nprovider = "offline"\n');
    const r = await sb.arbor(['-p', 'hello']);
    expect(r.stderr).not.toContain('unknown provider');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().length).toBeGreaterThan(0);
  });

  it('a TOML [agents.main] keeps the built-in researcher and reviewer: --agent researcher answers', async (ctx) => {
    const sb = sandbox(ctx);
    const model = await sb.withModel(() => ({ kind: 'text', chunks: ['from my main'] }));
    // Tables override the agent of their name only: main is the file's, on its model.
    const mine = await sb.arbor(['-p', 'hello']);
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.stdout.trim()).toBe('from my main');
    for (const agent of ['researcher', 'reviewer']) {
      const r = await sb.arbor(['--agent', agent, '-p', 'hello']);
      expect(r.stderr).not.toContain('no agent named');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim().length).toBeGreaterThan(0);
      expect(r.stdout).not.toContain('from my main');
    }
    // The built-in agents answer on the built-in offline model, not the file's provider.
    expect(model.requests).toHaveLength(1);
  });
});
