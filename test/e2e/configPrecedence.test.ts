// Config the README promises, on the built CLI: the built-in offline provider by name
// (issue #20 item 7).
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
});
