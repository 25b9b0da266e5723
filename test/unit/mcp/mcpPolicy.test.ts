// Globs in risk-profile tool lists, the readOnlyHint trust, MCP tool names and result text.
import { describe, expect, it } from 'vitest';
import { defaultRiskProfile } from '../../../src/config/defaults.js';
import { formatToolResult, MCP_EMPTY_RESULT, MCP_OUTPUT_CAP_BYTES } from '../../../src/mcp/results.js';
import { mcpServerOf, mcpToolName } from '../../../src/mcp/names.js';
import { approvalRequirement } from '../../../src/tools/approvalPolicy.js';
import { toolAllowedByProfile } from '../../../src/tools/toolGate.js';
import { agentSeesTool } from '../../../src/tools/mcpTools.js';

const risk = (patch: object) => ({ ...defaultRiskProfile('p'), ...patch });

describe('tool lists take globs', () => {
  it('allowed_tools, excluded_tools', () => {
    const r = risk({ allowed_tools: ['read_file', 'mcp__fs__*'], excluded_tools: ['mcp__fs__write_*'] });
    expect(toolAllowedByProfile(r, 'mcp__fs__read_text_file')).toBe(true);
    expect(toolAllowedByProfile(r, 'mcp__fs__write_file')).toBe(false);
    expect(toolAllowedByProfile(r, 'mcp__ev__echo')).toBe(false);
    expect(toolAllowedByProfile(r, 'read_file')).toBe(true);
    expect(toolAllowedByProfile(r, 'shell')).toBe(false);
    expect(toolAllowedByProfile(risk({ excluded_tools: ['mcp__*'] }), 'shell')).toBe(true);
    expect(toolAllowedByProfile(risk({ deny_all_tools: true, allowed_tools: ['*'] }), 'shell')).toBe(false);
  });

  it('auto_approve and always_ask; readOnlyHint only with trust_read_only_mcp', () => {
    const tool = { name: 'mcp__fs__read_text_file', asksByDefault: true, readOnlyHint: true };
    expect(approvalRequirement(tool, risk({}))).toBe('ask');
    expect(approvalRequirement(tool, risk({ trust_read_only_mcp: true }))).toBe('auto');
    expect(approvalRequirement({ ...tool, readOnlyHint: false }, risk({ trust_read_only_mcp: true }))).toBe('ask');
    expect(approvalRequirement(tool, risk({ auto_approve: ['mcp__fs__*'] }))).toBe('auto');
    expect(approvalRequirement(tool, risk({ auto_approve: ['mcp__fs__*'], always_ask: ['mcp__*__read_*'] }))).toBe('ask');
    expect(approvalRequirement(tool, risk({ trust_read_only_mcp: true, always_ask: ['mcp__fs__*'] }))).toBe('ask');
  });
});

describe('names', () => {
  it('mcp__<server>__<tool>, reduced to what providers accept', () => {
    expect(mcpToolName('fs', 'read_file')).toBe('mcp__fs__read_file');
    expect(mcpToolName('ev', 'get.sum v2')).toBe('mcp__ev__get_sum_v2');
    expect(mcpToolName('s', 'x'.repeat(100))).toHaveLength(64);
    expect(mcpServerOf('mcp__fs__read_file')).toBe('fs');
    expect(mcpServerOf('shell')).toBeUndefined();
    expect(agentSeesTool(['fs'], 'mcp__ev__echo')).toBe(false);
    expect(agentSeesTool(['fs'], 'shell')).toBe(true);
    expect(agentSeesTool(undefined, 'mcp__ev__echo')).toBe(true);
  });
});

describe('results', () => {
  it('text, images, audio, links, embedded resources, errors, empty', () => {
    const r = formatToolResult({
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', data: Buffer.alloc(2048).toString('base64'), mimeType: 'image/png' },
        { type: 'audio', data: Buffer.alloc(10).toString('base64'), mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///x', name: 'x' },
        { type: 'resource', resource: { uri: 'file:///y', text: 'body' } },
        { type: 'resource', resource: { uri: 'file:///z', blob: Buffer.alloc(3).toString('base64'), mimeType: 'application/gzip' } },
      ],
    });
    expect(r).toEqual({
      isError: false,
      text: 'a\n[image: image/png, 2.0 KB]\n[audio: audio/wav, 10 B]\n[resource link: x <file:///x>]\n[resource: file:///y]\nbody\n[resource: file:///z, application/gzip, 3 B]',
    });
    expect(formatToolResult({ content: [{ type: 'text', text: 'bad' }], isError: true })).toEqual({ text: 'bad', isError: true });
    expect(formatToolResult({ content: [] }).text).toBe(MCP_EMPTY_RESULT);
    expect(formatToolResult({ content: [], structuredContent: { n: 1 } }).text).toBe('{"n":1}');
  });

  it('output past the cap is cut with a note', () => {
    const r = formatToolResult({ content: [{ type: 'text', text: 'x'.repeat(MCP_OUTPUT_CAP_BYTES + 10) }] });
    expect(r.text.startsWith('x'.repeat(MCP_OUTPUT_CAP_BYTES))).toBe(true);
    expect(r.text).toContain(`[truncated: showed the first ${MCP_OUTPUT_CAP_BYTES} of ${MCP_OUTPUT_CAP_BYTES + 10} bytes`);
  });
});

describe('trace log', () => {
  it('a child run_started line lists the tools it was offered', async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { TraceLog } = await import('../../../src/persistence/traceLog.js');
    const home = mkdtempSync(join(tmpdir(), 'arbor-trace-mcp-'));
    try {
      const log = new TraceLog(home);
      log.event({
        event: 'run_started',
        agent_alias: 'a',
        session_key: 's',
        run_id: 'r',
        parent_run_id: 'p',
        tools: ['shell', 'mcp__fs__read_file'],
      });
      log.close();
      const line = JSON.parse(readFileSync(join(home, 'logs', 'arbor.log'), 'utf8').trim());
      expect(line.tools).toEqual(['shell', 'mcp__fs__read_file']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
