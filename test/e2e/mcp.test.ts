// MCP servers in the built app (a real pty): the status bar counts failed servers, /mcp
// lists servers and tools and restarts one (its name completed with Tab), and no server
// process outlives an Esc mid-call, /quit or a SIGTERM.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { disposeAllTerminals, type Term } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';
import { messagesOf } from '../support/wireBody.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const EVERYTHING = resolve('node_modules/.bin/mcp-server-everything');

const servers = `
[mcp_servers.ev]
command = "${EVERYTHING}"
args = ["stdio"]
startup_timeout_secs = 30

[mcp_servers.bad]
command = "${process.execPath}"
args = ["-e", "console.error('bad server: cannot open its database'); process.exit(2)"]

[risk_profiles.default]
auto_approve = ["mcp__ev__*"]
`;

/** Live MCP server processes arbor (pid `parent`) started: they carry the reaper marker. */
function serverPids(parent: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' || Number(ppid) !== parent) continue;
      if (!readFileSync(`/proc/${name}/environ`).includes('ARBOR_TOOL_RUN=')) continue;
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('mcp-server-everything')) continue;
      out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function gone(pids: number[], ms = 8000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !pids.some(alive);
}

async function serversUp(term: Term): Promise<number[]> {
  await term.waitFor(() => serverPids(term.pid).length === 1, 'the everything server to start', 30000);
  return serverPids(term.pid);
}

describe.runIf(process.platform === 'linux')('MCP servers in the chat', () => {
  ptyTest(
    'the status bar counts failed servers; /mcp lists them and their tools and restarts one; /quit leaves no server',
    90000,
    async (sb) => {
      await sb.withModel(() => ({ kind: 'text', chunks: ['the model answers'] }), servers);
      const term = await sb.startArbor([], { cols: 120, rows: 40 });
      await term.waitForText('MCP: 1 server failed (/mcp)', 30000);
      const pids = await serversUp(term);
      // A turn waits for the servers its agent sees: after its answer, ev is ready.
      await send(term, 'hello');
      await term.waitForText('the model answers', 30000);

      await send(term, '/mcp');
      await term.waitForText('MCP servers:', 10000);
      await term.waitForText(/ev {2}ready {2}stdio {2}\d+ tools/, 30000, { where: 'all' });
      await term.waitForText(/bad {2}failed {2}stdio {2}0 tools/, 10000, { where: 'all' });
      await term.waitForText('error: the server closed the connection while starting', 10000, { where: 'all' });
      await term.waitForText('bad server: cannot open its database', 10000, { where: 'all' });
      await term.waitForText('mcp__ev__echo (read-only)', 10000, { where: 'all' });

      // Tab completes the server name.
      term.type('/mcp restart e');
      await term.waitForText('/mcp restart e', 5000);
      term.press('tab');
      await term.waitForText('/mcp restart ev', 5000);
      term.press('enter');
      await term.waitForText(/MCP server ev is ready \(\d+ tools\)\./, 30000, { where: 'all' });
      // The old process was replaced, not added to.
      expect(await gone(pids)).toBe(true);
      const restarted = await serversUp(term);

      await send(term, '/quit');
      await term.waitForExit(15000);
      expect(await gone(restarted)).toBe(true);
    },
  );

  ptyTest(
    'Esc during an MCP call stops the turn and keeps the one server; SIGTERM then leaves none',
    PTY_TEST_TIMEOUT + 30000,
    async (sb) => {
      await sb.withModel(({ body }) => {
        const msgs = messagesOf(body);
        if (msgs.at(-1)?.role === 'tool') return { kind: 'text', chunks: ['done'] };
        return { kind: 'tools', calls: [{ id: 'm1', name: 'mcp__ev__trigger-long-running-operation', args: { duration: 60, steps: 6 } }] };
      }, servers);
      const term = await sb.startArbor([], { cols: 120, rows: 40 });
      const pids = await serversUp(term);
      await send(term, 'run the long operation');
      await term.waitForText('mcp__ev__trigger-long-running-operation', 30000);
      term.press('esc');
      await term.waitForText('Interrupted.', 15000, { where: 'all' });
      expect(serverPids(term.pid)).toEqual(pids);
      process.kill(term.pid, 'SIGTERM');
      await term.waitForExit(15000);
      expect(await gone(pids)).toBe(true);
    },
  );
});
