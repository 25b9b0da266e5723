// Startup with MCP servers (issue 14): the checkout's bin/arbor.js in a pty until the input
// prompt is visible, with three MCP servers configured (the everything server twice and the
// filesystem server, all over stdio) against the same config without them, interleaved in
// the same run. Servers connect in the background, so the prompt must not wait for them.
// Target: with / without ≤ 1.1 (ratio of the medians). After each MCP launch the three
// server processes are checked to have started, so a config that failed to start them
// cannot pass for a fast one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { arborBin, distUrl, repoRoot } from './lib/paths.js';
import { median, round } from './lib/stats.js';
const { startTerminal } = await import(distUrl('support/terminal.js'));
const { tempArborHome, writeConfig } = await import(distUrl('support/tempHome.js'));

export const name = 'mcp-startup';

const RUNS = 10;
const WARMUPS = 1;
const TARGET_RATIO = 1.1;
const START_TIMEOUT_MS = 30000;
const SERVERS = 3;

const BASE_CONFIG = `default_agent = "main"
[providers.local]
type = "offline"
[agents.main]
provider = "local"
`;

const mcpConfig = (dir) => {
  const bin = (n) => join(repoRoot, 'node_modules', '.bin', n);
  return `${BASE_CONFIG}
[mcp_servers.ev]
command = "${bin('mcp-server-everything')}"
args = ["stdio"]
[mcp_servers.ev2]
command = "${bin('mcp-server-everything')}"
args = ["stdio"]
[mcp_servers.fs]
command = "${bin('mcp-server-filesystem')}"
args = ["${dir}"]
`;
};

function readyLine() {
  const catalog = JSON.parse(readFileSync(join(repoRoot, 'locales', 'en', 'ui.json'), 'utf8'));
  return catalog.input.placeholder;
}

/** MCP server processes arbor (pid `parent`) started: its children carrying the reaper marker. */
function serverCount(parent) {
  let n = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && Number(ppid) === parent && readFileSync(`/proc/${entry}/environ`).includes('ARBOR_TOOL_RUN=')) n++;
    } catch {
      // gone
    }
  }
  return n;
}

async function toPrompt(withMcp, marker) {
  const h = tempArborHome({ prefix: 'arbor-bench-mcp-', fastTimings: false });
  writeConfig(h.dir, withMcp ? mcpConfig(h.dir) : BASE_CONFIG);
  const term = await startTerminal({ command: process.execPath, args: [arborBin], cwd: h.dir, env: h.env });
  try {
    const at = await term.timeUntilText(marker, { what: `the input prompt "${marker}"`, timeoutMs: START_TIMEOUT_MS });
    if (withMcp) await term.waitFor(() => serverCount(term.pid) === SERVERS, `${SERVERS} MCP server processes`, START_TIMEOUT_MS);
    return at - term.startedAt;
  } finally {
    await term.dispose();
    h.cleanup();
  }
}

/** @param {{ log?: (line: string) => void }} [options] */
export async function run({ log } = { log: () => {} }) {
  const marker = readyLine();
  const samples = { with: [], without: [] };
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    // Alternating which goes first, so neither always follows the other's teardown.
    const order = i % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
    const sample = {};
    for (const which of order) sample[which] = await toPrompt(which === 'with', marker);
    const warmup = i < WARMUPS;
    if (!warmup) for (const which of order) samples[which].push(sample[which]);
    log(
      `run ${i + 1}/${WARMUPS + RUNS}: without ${sample.without.toFixed(0)} ms, with ${sample.with.toFixed(0)} ms${warmup ? ' (warm-up, not counted)' : ''}`,
    );
  }
  const ratio = median(samples.with) / median(samples.without);
  const paired = median(samples.with.map((w, i) => w / samples.without[i]));
  return [
    {
      metric: `launch → prompt, no MCP servers (median of ${RUNS})`,
      value: round(median(samples.without), 1),
      unit: 'ms',
      samples: samples.without.map((v) => round(v, 1)),
    },
    {
      metric: `launch → prompt, ${SERVERS} MCP servers configured (median of ${RUNS})`,
      value: round(median(samples.with), 1),
      unit: 'ms',
      samples: samples.with.map((v) => round(v, 1)),
    },
    {
      metric: 'ratio with / without MCP servers (of the medians)',
      value: round(ratio, 2),
      unit: '×',
      target: `≤ ${TARGET_RATIO}`,
      pass: ratio <= TARGET_RATIO,
    },
    { metric: 'ratio with / without (median of back-to-back runs)', value: round(paired, 2), unit: '×' },
  ];
}
