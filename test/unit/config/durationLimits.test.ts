// Configured durations have a ceiling (issue #19): past a year a wait means nothing, and MCP
// timeouts are armed by the SDK's own single setTimeout (at most 2^31-1 ms). Refused with
// the key path; a long but sane value (5,000,000 s) is accepted and waited out by
// timers/timer.ts (test/unit/timers).
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { BASE, FILE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

describe('duration maxima', () => {
  it('5,000,000 s is accepted where the timer helper waits it out', () => {
    const { config } = load(`${BASE}max_child_seconds = 5000000\n[delegation]\nrun_timeout_secs = 5000000\nshell_timeout_secs = 5000000\n`);
    expect(config.delegation.run_timeout_secs).toBe(5_000_000);
    expect(config.agents.main.max_child_seconds).toBe(5_000_000);
  });

  it('past a year is refused, naming the key path', () => {
    expect(loadError(`${BASE}[delegation]\nrun_timeout_secs = 1e30\n`).message).toBe(
      `${FILE}: delegation.run_timeout_secs: must be between 0 and 31536000, got 1e+30`,
    );
    expect(loadError(`${BASE}max_child_seconds = 40000000\n`).message).toBe(
      `${FILE}: agents.main.max_child_seconds: must be at most 31536000, got 40000000`,
    );
    expect(loadError(`${BASE}max_child_seconds = 0\n`).message).toBe(
      `${FILE}: agents.main.max_child_seconds: must be greater than 0, got 0`,
    );
  });

  it('MCP timeouts stop at the SDK timer limit (24.8 days)', () => {
    expect(loadError(`${BASE}[mcp_servers.fs]\ncommand = "x"\ntool_timeout_secs = 5000000\n`).message).toBe(
      `${FILE}: mcp_servers.fs.tool_timeout_secs: must be at most 2147483, got 5000000`,
    );
    expect(loadError(`${BASE}[mcp_servers.fs]\ncommand = "x"\nstartup_timeout_secs = 5000000\n`).message).toBe(
      `${FILE}: mcp_servers.fs.startup_timeout_secs: must be at most 2147483, got 5000000`,
    );
  });
});
