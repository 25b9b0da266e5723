// When arbor crashes (an uncaught exception) with MCP servers running, none survives it:
// each server carries the tool-process marker, and the reaper's exit hook sweeps it. Runs
// the tsc output in build/ (npm run build first) in a child node that starts the real
// everything server and a stubborn SDK server (one that outlives its stdin closing, as
// the everything server does not), writes their pids and then throws.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';
import { alive, isToolProcess } from '../support/procs.js';

let work: string | undefined;
const pids: number[] = [];

afterEach(() => {
  for (const pid of pids.splice(0)) {
    if (!alive(pid) || !isToolProcess(pid)) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (work) rmSync(work, { recursive: true, force: true });
  work = undefined;
});

const built = (rel: string) => JSON.stringify(pathToFileURL(join(repoRoot, 'build', rel)).href);

const sdk = (rel: string) =>
  JSON.stringify(pathToFileURL(join(repoRoot, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', rel)).href);

/** A stdio MCP server that stays up when its client goes away. */
const stubborn = `
import { McpServer } from ${sdk('server/mcp.js')};
import { StdioServerTransport } from ${sdk('server/stdio.js')};
const server = new McpServer({ name: 'stubborn', version: '1' });
server.registerTool('noop', { description: 'does nothing' }, async () => ({ content: [] }));
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => {});
setInterval(() => {}, 1000);
`;

const script = (dir: string) => `
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadConfigFromTexts } from ${built('config/load.js')};
import { createMcpManager } from ${built('tools/mcpTools.js')};
const toml = '[providers.o]\\ntype = "offline"\\n[agents.main]\\nprovider = "o"\\n[mcp_servers.ev]\\ncommand = ${JSON.stringify(resolve('node_modules/.bin/mcp-server-everything'))}\\nargs = ["stdio"]\\nstartup_timeout_secs = 30\\n[mcp_servers.stubborn]\\ncommand = ${JSON.stringify(process.execPath)}\\nargs = [${JSON.stringify(join(dir, 'stubborn.mjs'))}]\\n';
const loaded = loadConfigFromTexts([{ file: '/c.toml', text: toml }], process.env);
const manager = createMcpManager(loaded.config, ${JSON.stringify(dir)}, process.env);
manager.startAll();
const missing = await manager.waitFor(['ev', 'stubborn']);
if (missing.length) { console.error('server did not start'); process.exit(3); }
const children = readdirSync('/proc').filter((n) => /^\\d+$/.test(n)).filter((n) => {
  try {
    const stat = readFileSync('/proc/' + n + '/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
  } catch { return false; }
});
writeFileSync(${JSON.stringify(join(dir, 'servers.pid'))}, children.join(' '));
setTimeout(() => { throw new Error('simulated crash'); }, 10);
`;

describe.runIf(process.platform === 'linux')('MCP servers and arbor crashing', () => {
  it('an uncaught exception leaves no server process', async () => {
    const dist = join(repoRoot, 'build', 'tools', 'mcpTools.js');
    expect(existsSync(dist), `${dist} missing: run npm run build first`).toBe(true);
    work = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-mcp-crash-')));
    writeFileSync(join(work, 'stubborn.mjs'), stubborn);
    const child = spawn(process.execPath, ['--input-type=module', '-e', script(work)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(stderr).toContain('simulated crash');
    expect(code).toBe(1);
    const found = readFileSync(join(work, 'servers.pid'), 'utf8').trim().split(' ').filter(Boolean).map(Number);
    expect(found).toHaveLength(2);
    pids.push(...found);
    const deadline = Date.now() + 3000;
    while (found.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(found.filter(alive)).toEqual([]);
  }, 40_000);
});
