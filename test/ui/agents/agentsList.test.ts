// `/agents list` text: one block per agent with its source said the short way, file
// contents made inert.
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { formatAgentList, shortPath } from '../../../src/ui/agents/agentsList.js';

beforeEach(() => setLanguage('en'));

describe('/agents list', () => {
  it('says where each agent came from, marks the root and disabled ones, and neutralises file text', () => {
    const out = formatAgentList(
      [
        { alias: 'main', provider: 'offline', model: 'offline/arbor-offline', enabled: true, root: true },
        {
          alias: 'rev',
          source: '/w/p/.arbor/agents/rev.md',
          description: 'Reviews\n  diffs \u001b[31mred',
          provider: 'local',
          model: 'openai/big',
          enabled: false,
          root: false,
        },
        { alias: 'u', source: '/h/.arbor/agents/u.md', provider: 'local', model: 'openai/m', enabled: true, root: false },
      ],
      { cwd: '/w/p', home: '/h' },
    );
    expect(out).toBe(
      [
        '3 agents defined:',
        '  main (you talk to this one)  offline · offline/arbor-offline',
        '    built into arbor',
        '  rev (disabled)  local · openai/big',
        '    from .arbor/agents/rev.md',
        '    Reviews diffs ␛[31mred',
        '  u  local · openai/m',
        '    from ~/.arbor/agents/u.md',
      ].join('\n'),
    );
    setLanguage('es');
    expect(formatAgentList([], { cwd: '/', home: '/h' })).toBe('No hay agentes definidos.');
  });

  it('shortPath keeps paths outside the working directory and home whole', () => {
    expect(shortPath('/etc/x.md', '/w', '/h')).toBe('/etc/x.md');
    expect(shortPath('/w/a.md', '/w', '')).toBe('a.md');
  });
});
