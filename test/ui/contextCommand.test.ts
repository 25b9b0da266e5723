// /context's text: sizes, what the cap did, and paths from the disk shown inert.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { contextSize, describeContext } from '../../src/ui/commands/context.js';

beforeAll(() => setLanguage('en'));

const base = { maxKb: 32, searched: ['/w/a', '/w'], warnings: [], agentOptedOut: false };

describe('/context', () => {
  it('lists each file in prompt order with its size and what the cap did', () => {
    const text = describeContext(
      {
        ...base,
        files: [
          { path: '/h/AGENTS.md', scope: 'home', size: 40000, loaded: 0, cut: true },
          { path: '/w/AGENTS.md', scope: 'project', size: 40000, loaded: 30000, cut: true },
          { path: '/w/x/AGENTS.md', scope: 'project', size: 0, loaded: 0, cut: false, error: 'EACCES' },
          { path: '/w/a/AGENTS.md', scope: 'project', size: 2768, loaded: 2768, cut: false },
        ],
      },
      'main',
    );
    expect(text.split('\n')).toEqual([
      'Project context (AGENTS.md, cap 32 KB), in prompt order:',
      '  /h/AGENTS.md (user)  39 KB, left out (over the cap)',
      '  /w/AGENTS.md  39 KB, cut to 29 KB',
      '  /w/x/AGENTS.md  unreadable (EACCES)',
      '  /w/a/AGENTS.md  2.7 KB',
      '32 KB of 32 KB used.',
    ]);
    expect(contextSize(200)).toBe('200 B');
  });

  it('a 100 MB file reads in the unit a person reads, in English and Spanish (issue #19)', () => {
    const report = {
      ...base,
      files: [{ path: '/w/AGENTS.md', scope: 'project' as const, size: 105_000_000, loaded: 32 * 1024, cut: true }],
    };
    expect(describeContext(report, 'main').split('\n')[1]).toBe('  /w/AGENTS.md  100 MB, cut to 32 KB');
    setLanguage('es');
    try {
      const es = describeContext(report, 'main');
      expect(es).toContain('100 MB');
      expect(es).toContain('32 KB');
      expect(es).not.toMatch(/KiB|\d{4,}\.\d/);
    } finally {
      setLanguage('en');
    }
  });

  it('says where it looked when nothing was found, when it is off, and when the agent opted out', () => {
    expect(describeContext({ ...base, files: [] }, 'main')).toBe('No AGENTS.md found. Looked in: /w/a, /w.');
    expect(describeContext({ ...base, maxKb: 0, files: [] }, 'main')).toBe('Project context is off ([context] max_kb = 0).');
    expect(describeContext({ ...base, files: [], agentOptedOut: true }, 'main')).toContain(
      'The agent main has context = false: these files are not in its system prompt.',
    );
  });

  it('paths from the disk cannot drive the terminal', () => {
    const text = describeContext(
      { ...base, files: [{ path: '/w/\u001b]0;pwned\u0007/AGENTS.md', scope: 'project', size: 10, loaded: 10, cut: false }] },
      'main',
    );
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('/w/␛]0;pwned␇/AGENTS.md  10 B');
  });
});
