import { describe, it, expect } from 'vitest';
import { approvalRequirement, childApprovalDecision, describeToolCall } from '../../../src/tools/approvalPolicy.js';
import { builtinTools } from '../../../src/tools/registry.js';
import { setLanguage } from '../../../src/i18n/index.js';
import { risk } from './helpers.js';

const asking = { name: 'shell', asksByDefault: true };
const quiet = { name: 'read_file', asksByDefault: false };

describe('approvalRequirement', () => {
  it.each([
    ['default, asking tool', asking, {}, 'ask'],
    ['default, quiet tool', quiet, {}, 'auto'],
    ['auto_approve an asking tool', asking, { auto_approve: ['shell'] }, 'auto'],
    ['always_ask a quiet tool', quiet, { always_ask: ['read_file'] }, 'ask'],
    ['always_ask wins over auto_approve', asking, { auto_approve: ['shell'], always_ask: ['shell'] }, 'ask'],
    ['other names do not matter', asking, { auto_approve: ['write_file'] }, 'ask'],
  ] as const)('%s', (_label, tool, overrides, expected) => {
    expect(approvalRequirement(tool, risk(overrides as never))).toBe(expected);
  });

  it('asks by default for shell, write_file and edit_file only among the built-ins', () => {
    const asks = builtinTools()
      .filter((t) => approvalRequirement(t, risk()) === 'ask')
      .map((t) => t.name);
    expect(asks).toEqual(['shell', 'write_file', 'edit_file']);
  });
});

describe('childApprovalDecision', () => {
  it('lets auto calls through in a child', () => {
    expect(childApprovalDecision('auto', false, 'read_file')).toEqual({ allowed: true });
  });

  it('denies a call that would ask, with a message the child model can act on', () => {
    expect(childApprovalDecision('ask', false, 'shell')).toEqual({
      allowed: false,
      error:
        "Tool 'shell' requires operator approval, but this agent runs as a child with no operator; the call was denied. Set [delegation] subagent_auto_approve = true to allow.",
    });
  });

  it('allows it when subagent_auto_approve is set', () => {
    expect(childApprovalDecision('ask', true, 'shell')).toEqual({ allowed: true });
  });
});

describe('describeToolCall', () => {
  it('summarizes calls for the approval prompt in the operator language', () => {
    setLanguage('en');
    expect(describeToolCall('shell', { command: 'ls -la\n  src' })).toBe('Run the shell command: ls -la src');
    expect(describeToolCall('write_file', { path: 'a.txt', content: 'héllo' })).toBe('Write 6 bytes to a.txt');
    expect(describeToolCall('list_files', { pattern: '*.ts' })).toBe('List *.ts under .');
    expect(describeToolCall('delegate', { agent: 'x' })).toBe('Call delegate with {"agent":"x"}');
    expect(describeToolCall('shell', undefined)).toBe('Call shell with ');
    setLanguage('es');
    try {
      expect(describeToolCall('read_file', { path: 'a.txt' })).toBe('Leer el archivo a.txt');
    } finally {
      setLanguage('en');
    }
  });

  it('clips very long arguments', () => {
    const summary = describeToolCall('shell', { command: 'x'.repeat(1000) });
    expect(summary.length).toBeLessThan(260);
    expect(summary.endsWith('…')).toBe(true);
  });
});
