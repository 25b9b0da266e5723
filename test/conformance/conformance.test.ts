// The official MCP conformance suite's client scenarios, every one of them, against
// arbor's MCP client (test/conformance/client.mjs drives the built McpManager). The
// scenario servers run on loopback, so this needs no network. A scenario that fails, and
// is not in expected-failures.yml with its reason, fails this test.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const NODE = [process.execPath, '--import', join(ROOT, 'test/conformance/fsGlobShim.mjs'), CLI];
const out = mkdtempSync(join(tmpdir(), 'arbor-conformance-results-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function clientScenarios(): string[] {
  const text = execFileSync(NODE[0], [...NODE.slice(1), 'list'], { encoding: 'utf8' });
  const section = text.split('Client scenarios')[1] ?? '';
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

const scenarios = clientScenarios();

describe('MCP conformance: client scenarios', () => {
  it('lists the client scenarios', () => {
    expect(scenarios).toContain('initialize');
    expect(scenarios.filter((s) => s.startsWith('auth/')).length).toBeGreaterThan(10);
  });
  for (const scenario of scenarios) {
    it(
      scenario,
      () => {
        const run = spawnSync(
          NODE[0],
          [
            ...NODE.slice(1),
            'client',
            '--command',
            `"${process.execPath}" "${join(ROOT, 'test/conformance/client.mjs')}"`,
            '--scenario',
            scenario,
            '--expected-failures',
            join(ROOT, 'test/conformance/expected-failures.yml'),
            '-o',
            out,
            '--timeout',
            '60000',
          ],
          { encoding: 'utf8', cwd: out, timeout: 120_000 },
        );
        const text = `${run.stdout}\n${run.stderr}`;
        expect(run.status, text.slice(-3000)).toBe(0);
      },
      150_000,
    );
  }
});
